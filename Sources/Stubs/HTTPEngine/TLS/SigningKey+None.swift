#if !canImport(COpenSSL) && !canImport(CryptoKit)
    /// Where the engine is built with neither OpenSSL nor CryptoKit (the fuzzing builds of the request decoder),
    /// keys cannot be made: every use throws, as serving HTTPS there does.
    struct SigningKey {
        private static let none = TLSError("no crypto library in this build: keys need OpenSSL or CryptoKit")

        static func make() throws(TLSError) -> SigningKey { throw none }
        init(pem: String) throws(TLSError) { throw Self.none }
        var pem: String { "" }
        func publicKeyInfo() throws(TLSError) -> [UInt8] { throw Self.none }
        func sign(_ message: [UInt8]) throws(TLSError) -> [UInt8] { throw Self.none }
        static func sha256(_ bytes: [UInt8]) throws(TLSError) -> [UInt8] { throw none }
        static func encryptAES256CBC(_ plaintext: [UInt8], key: [UInt8], iv: [UInt8]) throws(TLSError) -> [UInt8] {
            throw none
        }
    }
#endif

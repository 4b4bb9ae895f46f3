#if !canImport(COpenSSL) && canImport(CryptoKit)
    import CommonCrypto
    import CryptoKit
    import Foundation

    /// A P-256 private key with CryptoKit, writing and reading the PEM files OpenSSL's does on Linux
    /// (`SigningKey+OpenSSL.swift`). Every member used is CryptoKit's, macOS 11 and iOS 14 or later:
    /// https://developer.apple.com/documentation/cryptokit/p256/signing/privatekey (`init()`,
    /// `init(pemRepresentation:)`: PKCS#8 or SEC 1 PEM; `pemRepresentation`: PKCS#8; `signature(for:)`: ECDSA over
    /// SHA-256), .../p256/signing/publickey/derrepresentation (a SubjectPublicKeyInfo),
    /// .../p256/signing/ecdsasignature/derrepresentation and .../cryptokit/sha256/hash(data:).
    struct SigningKey {
        let key: P256.Signing.PrivateKey

        static func make() throws(TLSError) -> SigningKey { SigningKey(key: P256.Signing.PrivateKey()) }

        private init(key: P256.Signing.PrivateKey) { self.key = key }

        init(pem: String) throws(TLSError) {
            do { key = try P256.Signing.PrivateKey(pemRepresentation: pem) } catch {
                throw TLSError("the key's PEM does not read as a P-256 private key: \(error)")
            }
        }

        var pem: String { key.pemRepresentation }

        func publicKeyInfo() throws(TLSError) -> [UInt8] { Array(key.publicKey.derRepresentation) }

        func sign(_ message: [UInt8]) throws(TLSError) -> [UInt8] {
            do { return Array(try key.signature(for: message).derRepresentation) } catch {
                throw TLSError("signing: \(error)")
            }
        }

        static func sha256(_ bytes: [UInt8]) throws(TLSError) -> [UInt8] { Array(SHA256.hash(data: bytes)) }

        /// CommonCrypto's one-shot cipher, as CommonCrypto's include/CommonCryptor.h:620 declares it (`kCCEncrypt`
        /// :115, `kCCAlgorithmAES` :133, `kCCOptionPKCS7Padding` :153; `kCCSuccess` CommonCryptoError.h:57).
        static func encryptAES256CBC(_ plaintext: [UInt8], key: [UInt8], iv: [UInt8]) throws(TLSError) -> [UInt8] {
            guard key.count == 32, iv.count == 16 else {
                throw TLSError("AES-256-CBC takes a 32-byte key, a 16-byte IV")
            }
            let capacity = plaintext.count + 16
            var output = [UInt8](repeating: 0, count: capacity)
            var moved = 0
            let status = CCCrypt(
                CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmAES), CCOptions(kCCOptionPKCS7Padding), key, key.count,
                iv, plaintext, plaintext.count, &output, capacity, &moved)
            guard status == CCCryptorStatus(kCCSuccess) else { throw TLSError("AES-256-CBC: CCCrypt gave \(status)") }
            return Array(output.prefix(moved))
        }
    }
#endif

/// A PKCS #12 file (RFC 7292) of one private key and its certificate chain, as OpenSSL 3 writes one by default and
/// Apple's `SecPKCS12Import` reads it: the key in a shrouded bag (PBES2: PBKDF2 with HMAC-SHA-256, AES-256-CBC;
/// RFC 8018), the certificates in a plain one, and the whole under an HMAC-SHA-256 integrity MAC keyed by the
/// password (RFC 7292 Appendix B). It is how a platform without a keychain-free identity API gets an identity.
struct PKCS12 {
    /// The certificates, DER, the leaf first.
    var certificates: [[UInt8]]
    /// The leaf's private key: a PKCS #8 PrivateKeyInfo, DER.
    var privateKeyInfo: [UInt8]
    /// Protects the key and keys the MAC; ASCII here (both KDFs then agree on its bytes).
    var password: String
    var iterations = 2048

    /// The PFX, DER, with fresh salts and IV.
    /// - Throws: `TLSError` when the platform's cipher fails.
    func der() throws(TLSError) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        func random(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) } }
        // localKeyId ties the key to its certificate (PKCS #9 §5.5.6: 1.2.840.113549.1.9.21).
        let keyID = try SigningKey.sha256(certificates.first ?? [])
        let tie = DER.set([DER.sequence([DER.oid([1, 2, 840, 113_549, 1, 9, 21]), DER.set([DER.octetString(keyID)])])])
        let certificateBags = certificates.enumerated().map { index, certificate in
            // A certBag of an x509Certificate (RFC 7292 §4.2.3; PKCS #9 1.2.840.113549.1.9.22.1).
            let bag = DER.sequence([
                DER.oid([1, 2, 840, 113_549, 1, 9, 22, 1]), DER.tlv(0xa0, DER.octetString(certificate)),
            ])
            return DER.sequence(
                [DER.oid([1, 2, 840, 113_549, 1, 12, 10, 1, 3]), DER.tlv(0xa0, bag)] + (index == 0 ? [tie] : []))
        }
        let (salt, iv) = (random(16), random(16))
        let key = try Self.pbkdf2(password: Array(password.utf8), salt: salt, iterations: iterations, count: 32)
        let encrypted = try SigningKey.encryptAES256CBC(privateKeyInfo, key: key, iv: iv)
        let pbes2 = DER.sequence([
            DER.oid([1, 2, 840, 113_549, 1, 5, 13]),
            DER.sequence([
                DER.sequence([
                    DER.oid([1, 2, 840, 113_549, 1, 5, 12]),  // PBKDF2
                    DER.sequence([
                        DER.octetString(salt), DER.integer(Self.bigEndian(iterations)),
                        DER.sequence([DER.oid([1, 2, 840, 113_549, 2, 9]), [0x05, 0x00]]),  // hmacWithSHA256
                    ]),
                ]),
                DER.sequence([DER.oid([2, 16, 840, 1, 101, 3, 4, 1, 42]), DER.octetString(iv)]),  // aes256-CBC
            ]),
        ])
        // A pkcs8ShroudedKeyBag (RFC 7292 §4.2.2) of an EncryptedPrivateKeyInfo (RFC 5208 §6).
        let keyBag = DER.sequence([
            DER.oid([1, 2, 840, 113_549, 1, 12, 10, 1, 2]),
            DER.tlv(0xa0, DER.sequence([pbes2, DER.octetString(encrypted)])), tie,
        ])
        let authenticatedSafe = DER.sequence([
            Self.data(DER.sequence(certificateBags)), Self.data(DER.sequence([keyBag])),
        ])
        let macSalt = random(16)
        let macKey = try Self.pkcs12Key(password: password, salt: macSalt, iterations: iterations)
        let mac = try Self.hmacSHA256(key: macKey, authenticatedSafe)
        return DER.sequence([
            DER.integer([3]),
            Self.data(authenticatedSafe),
            DER.sequence([
                DER.sequence([
                    DER.sequence([DER.oid([2, 16, 840, 1, 101, 3, 4, 2, 1]), [0x05, 0x00]]),  // SHA-256
                    DER.octetString(mac),
                ]),
                DER.octetString(macSalt), DER.integer(Self.bigEndian(iterations)),
            ]),
        ])
    }

    /// A ContentInfo of type data (PKCS #7 1.2.840.113549.1.7.1) holding `content`.
    private static func data(_ content: [UInt8]) -> [UInt8] {
        DER.sequence([DER.oid([1, 2, 840, 113_549, 1, 7, 1]), DER.tlv(0xa0, DER.octetString(content))])
    }

    private static func bigEndian(_ value: Int) -> [UInt8] {
        (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }

    /// HMAC (RFC 2104) with SHA-256.
    static func hmacSHA256(key: [UInt8], _ message: [UInt8]) throws(TLSError) -> [UInt8] {
        var block = key.count > 64 ? try SigningKey.sha256(key) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        let inner = try SigningKey.sha256(block.map { $0 ^ 0x36 } + message)
        return try SigningKey.sha256(block.map { $0 ^ 0x5c } + inner)
    }

    /// PBKDF2 (RFC 8018 §5.2) with HMAC-SHA-256: `count` bytes.
    static func pbkdf2(password: [UInt8], salt: [UInt8], iterations: Int, count: Int) throws(TLSError) -> [UInt8] {
        var derived: [UInt8] = []
        var block: UInt32 = 1
        while derived.count < count {
            let index = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: block >> $0) }
            var u = try hmacSHA256(key: password, salt + index)
            var t = u
            for _ in 1..<max(1, iterations) {
                u = try hmacSHA256(key: password, u)
                for i in t.indices { t[i] ^= u[i] }
            }
            derived += t
            block += 1
        }
        return Array(derived.prefix(count))
    }

    /// The MAC key of RFC 7292 Appendix B.2 (ID 3) with SHA-256: 32 bytes from the password as a BMPString
    /// (UTF-16BE and two zero bytes).
    static func pkcs12Key(password: String, salt: [UInt8], iterations: Int) throws(TLSError) -> [UInt8] {
        let v = 64
        func repeated(_ bytes: [UInt8]) -> [UInt8] {
            guard !bytes.isEmpty else { return [] }
            let length = v * ((bytes.count + v - 1) / v)
            return (0..<length).map { bytes[$0 % bytes.count] }
        }
        let bmp: [UInt8] = password.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xff)] } + [0, 0]
        var a = [UInt8](repeating: 3, count: v) + repeated(salt) + repeated(bmp)
        for _ in 0..<max(1, iterations) { a = try SigningKey.sha256(a) }
        return a
    }
}

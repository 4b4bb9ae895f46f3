#if canImport(COpenSSL)
    import COpenSSL

    /// A P-256 private key, with OpenSSL: made, read from and written to PEM (PKCS#8), and signing with ECDSA over
    /// SHA-256. What the local authority needs of a platform's crypto; Apple platforms have their own
    /// (`SigningKey+CryptoKit.swift`).
    final class SigningKey {
        /// The `EVP_PKEY`, freed with this.
        let key: OpaquePointer

        private init(_ key: OpaquePointer) {
            self.key = key
        }

        deinit {
            EVP_PKEY_free(key)
        }

        /// A new random key.
        static func make() throws(TLSError) -> SigningKey {
            guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else {
                throw OpenSSLErrors.take("EVP_PKEY_CTX_new_from_name")
            }
            defer { EVP_PKEY_CTX_free(context) }
            var key: OpaquePointer?
            guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_group_name(context, "P-256") == 1,
                EVP_PKEY_generate(context, &key) == 1, let key
            else { throw OpenSSLErrors.take("making a P-256 key") }
            return SigningKey(key)
        }

        /// The key in `pem` (PKCS#8 `PRIVATE KEY`, or SEC 1 `EC PRIVATE KEY`).
        convenience init(pem: String) throws(TLSError) {
            self.init(try PEM.privateKey(pem))
        }

        /// The key as PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`).
        var pem: String { PEM.text(privateKey: key) }

        /// The public half as a SubjectPublicKeyInfo (DER).
        func publicKeyInfo() throws(TLSError) -> [UInt8] {
            var der: UnsafeMutablePointer<UInt8>?
            let count = i2d_PUBKEY(key, &der)
            guard count > 0, let der else { throw OpenSSLErrors.take("i2d_PUBKEY") }
            defer { copenssl_free(der) }
            return Array(UnsafeBufferPointer(start: der, count: Int(count)))
        }

        /// The ECDSA signature (an ECDSA-Sig-Value, DER) of `message`'s SHA-256.
        func sign(_ message: [UInt8]) throws(TLSError) -> [UInt8] {
            guard let context = EVP_MD_CTX_new() else { throw OpenSSLErrors.take("EVP_MD_CTX_new") }
            defer { EVP_MD_CTX_free(context) }
            var length = 0
            guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1,
                EVP_DigestSign(context, nil, &length, message, message.count) == 1
            else { throw OpenSSLErrors.take("signing") }
            var signature = [UInt8](repeating: 0, count: length)
            guard EVP_DigestSign(context, &signature, &length, message, message.count) == 1 else {
                throw OpenSSLErrors.take("signing")
            }
            return Array(signature.prefix(length))
        }

        /// `plaintext` encrypted with AES-256 in CBC mode, PKCS #7 padded (what PBES2 in `PKCS12` asks).
        static func encryptAES256CBC(_ plaintext: [UInt8], key: [UInt8], iv: [UInt8]) throws(TLSError) -> [UInt8] {
            guard key.count == 32, iv.count == 16 else {
                throw TLSError("AES-256-CBC takes a 32-byte key, a 16-byte IV")
            }
            guard let context = EVP_CIPHER_CTX_new() else { throw OpenSSLErrors.take("EVP_CIPHER_CTX_new") }
            defer { EVP_CIPHER_CTX_free(context) }
            var output = [UInt8](repeating: 0, count: plaintext.count + 16)
            var (written, last): (Int32, Int32) = (0, 0)
            let ok = output.withUnsafeMutableBufferPointer { buffer in
                EVP_EncryptInit_ex(context, EVP_aes_256_cbc(), nil, key, iv) == 1
                    && EVP_EncryptUpdate(context, buffer.baseAddress, &written, plaintext, Int32(plaintext.count)) == 1
                    && EVP_EncryptFinal_ex(context, buffer.baseAddress! + Int(written), &last) == 1
            }
            guard ok else { throw OpenSSLErrors.take("AES-256-CBC") }
            return Array(output.prefix(Int(written + last)))
        }

        /// The SHA-256 of `bytes`.
        static func sha256(_ bytes: [UInt8]) throws(TLSError) -> [UInt8] {
            var digest = [UInt8](repeating: 0, count: 32)
            var length: UInt32 = 0
            guard EVP_Digest(bytes, bytes.count, &digest, &length, EVP_sha256(), nil) == 1 else {
                throw OpenSSLErrors.take("SHA-256")
            }
            return digest
        }
    }
#endif

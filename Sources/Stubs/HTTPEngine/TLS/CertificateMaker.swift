#if canImport(COpenSSL)
    import COpenSSL

    /// P-256 keys made with OpenSSL, and X.509 certificates for them (`CertificateDER`) signed with OpenSSL: an
    /// authority, and leaves it signs for host names and addresses, as Apple's trust rules for servers ask
    /// (subject alternative names, `serverAuth`, SHA-256, at most 825 days).
    enum CertificateMaker {
        /// A new P-256 key; the caller frees it.
        static func key() throws(TLSError) -> OpaquePointer {
            guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else {
                throw OpenSSLErrors.take("EVP_PKEY_CTX_new_from_name")
            }
            defer { EVP_PKEY_CTX_free(context) }
            var key: OpaquePointer?
            guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_group_name(context, "P-256") == 1,
                EVP_PKEY_generate(context, &key) == 1, let key
            else { throw OpenSSLErrors.take("making a P-256 key") }
            return key
        }

        /// What a certificate says.
        struct Request {
            var commonName: String
            /// Host names and IP addresses (subject alternative names); none for an authority.
            var hosts: [String] = []
            var isAuthority = false
            /// Seconds from now the certificate starts being valid (negative: in the past).
            var validFrom: Int = -3600
            /// Seconds from now it stops being valid.
            var validUntil: Int
        }

        /// A certificate for `key` as `request` says, signed by `issuer` (its certificate and key), or by `key`
        /// itself when there is none; the caller frees it. Written by `CertificateDER`, signed here.
        static func certificate(
            _ request: Request, key: OpaquePointer, issuer: (certificate: OpaquePointer, key: OpaquePointer)?
        ) throws(TLSError) -> OpaquePointer {
            var serial = [UInt8](repeating: 0, count: 16)
            guard RAND_bytes(&serial, Int32(serial.count)) == 1 else { throw OpenSSLErrors.take("RAND_bytes") }
            serial[0] = serial[0] & 0x7f | 0x40  // positive, 127 bits (RFC 5280 §4.1.2.2: at most 20 octets)
            let publicKeyInfo = try Self.publicKeyInfo(key)
            var issuerName = CertificateDER.name(commonName: request.commonName)
            var issuerKeyInfo = publicKeyInfo
            if let issuer {
                issuerName = try name(issuer.certificate)
                issuerKeyInfo = try Self.publicKeyInfo(issuer.key)
            }
            let now = time(nil)
            let written = CertificateDER(
                serialNumber: serial, issuer: issuerName, subjectCommonName: request.commonName,
                notBefore: now + request.validFrom, notAfter: now + request.validUntil,
                subjectPublicKeyInfo: publicKeyInfo, issuerPublicKeyInfo: issuerKeyInfo,
                isAuthority: request.isAuthority, hosts: request.hosts)
            let toBeSigned = try written.toBeSigned()
            let der = CertificateDER.certificate(
                toBeSigned: toBeSigned, signature: try sign(toBeSigned, with: issuer?.key ?? key))
            return try der.withUnsafeBufferPointer { buffer throws(TLSError) in
                var start = buffer.baseAddress
                guard let certificate = d2i_X509(nil, &start, buffer.count) else {
                    throw OpenSSLErrors.take("reading the certificate written")
                }
                return certificate
            }
        }

        /// `key`'s public half as a SubjectPublicKeyInfo (DER).
        static func publicKeyInfo(_ key: OpaquePointer) throws(TLSError) -> [UInt8] {
            var der: UnsafeMutablePointer<UInt8>?
            let count = i2d_PUBKEY(key, &der)
            guard count > 0, let der else { throw OpenSSLErrors.take("i2d_PUBKEY") }
            defer { copenssl_free(der) }
            return Array(UnsafeBufferPointer(start: der, count: Int(count)))
        }

        /// `certificate`'s subject Name as it was written (DER): a leaf's issuer, byte for byte.
        private static func name(_ certificate: OpaquePointer) throws(TLSError) -> [UInt8] {
            var der: UnsafeMutablePointer<UInt8>?
            let count = i2d_X509_NAME(X509_get_subject_name(certificate), &der)
            guard count > 0, let der else { throw OpenSSLErrors.take("i2d_X509_NAME") }
            defer { copenssl_free(der) }
            return Array(UnsafeBufferPointer(start: der, count: Int(count)))
        }

        /// The ECDSA signature (DER) of `message`'s SHA-256 by `key`.
        static func sign(_ message: [UInt8], with key: OpaquePointer) throws(TLSError) -> [UInt8] {
            guard let context = EVP_MD_CTX_new() else { throw OpenSSLErrors.take("EVP_MD_CTX_new") }
            defer { EVP_MD_CTX_free(context) }
            var length = 0
            guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1,
                EVP_DigestSign(context, nil, &length, message, message.count) == 1
            else { throw OpenSSLErrors.take("signing the certificate") }
            var signature = [UInt8](repeating: 0, count: length)
            guard EVP_DigestSign(context, &signature, &length, message, message.count) == 1 else {
                throw OpenSSLErrors.take("signing the certificate")
            }
            return Array(signature.prefix(length))
        }
    }
#endif

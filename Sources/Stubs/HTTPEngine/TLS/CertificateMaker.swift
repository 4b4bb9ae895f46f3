#if canImport(COpenSSL)
    import COpenSSL

    /// X.509 certificates and keys made with OpenSSL: an authority, and leaves it signs for host names and
    /// addresses, as Apple's trust rules for servers ask (subject alternative names, `serverAuth`, SHA-256, at most
    /// 825 days).
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
        /// itself when there is none; the caller frees it.
        static func certificate(
            _ request: Request, key: OpaquePointer, issuer: (certificate: OpaquePointer, key: OpaquePointer)?
        ) throws(TLSError) -> OpaquePointer {
            guard let certificate = X509_new() else { throw OpenSSLErrors.take("X509_new") }
            var done = false
            defer { if !done { X509_free(certificate) } }
            guard X509_set_version(certificate, 2) == 1, setSerial(certificate),
                X509_gmtime_adj(X509_getm_notBefore(certificate), request.validFrom) != nil,
                X509_gmtime_adj(X509_getm_notAfter(certificate), request.validUntil) != nil,
                X509_set_pubkey(certificate, key) == 1
            else { throw OpenSSLErrors.take("the certificate's fields") }
            guard let name = X509_NAME_new() else { throw OpenSSLErrors.take("X509_NAME_new") }
            defer { X509_NAME_free(name) }
            guard X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, request.commonName, -1, -1, 0) == 1,
                X509_set_subject_name(certificate, name) == 1,
                X509_set_issuer_name(certificate, issuer.map { X509_get_subject_name($0.certificate) } ?? name) == 1
            else { throw OpenSSLErrors.take("the certificate's names") }
            var extensions = [
                (NID_subject_key_identifier, "hash"),
                (NID_authority_key_identifier, "keyid:always"),
            ]
            if request.isAuthority {
                extensions += [
                    (NID_basic_constraints, "critical,CA:TRUE,pathlen:0"),
                    (NID_key_usage, "critical,keyCertSign,cRLSign"),
                ]
            } else {
                let names = request.hosts.map { isAddress($0) ? "IP:\($0)" : "DNS:\($0)" }
                extensions += [
                    (NID_basic_constraints, "critical,CA:FALSE"),
                    (NID_key_usage, "critical,digitalSignature"),
                    (NID_ext_key_usage, "serverAuth"),
                    (NID_subject_alt_name, names.joined(separator: ",")),
                ]
            }
            var context = X509V3_CTX()
            X509V3_set_ctx(&context, issuer?.certificate ?? certificate, certificate, nil, nil, 0)
            for (nid, value) in extensions {
                guard let made = X509V3_EXT_nconf_nid(nil, &context, nid, value) else {
                    throw OpenSSLErrors.take("the extension \(String(cString: OBJ_nid2sn(nid))) \(value)")
                }
                defer { X509_EXTENSION_free(made) }
                guard X509_add_ext(certificate, made, -1) == 1 else { throw OpenSSLErrors.take("X509_add_ext") }
            }
            guard X509_sign(certificate, issuer?.key ?? key, EVP_sha256()) > 0 else {
                throw OpenSSLErrors.take("signing the certificate")
            }
            done = true
            return certificate
        }

        /// A random positive 127-bit serial number, as RFC 5280 §4.1.2.2 allows (at most 20 octets).
        private static func setSerial(_ certificate: OpaquePointer) -> Bool {
            var bytes = [UInt8](repeating: 0, count: 16)
            guard RAND_bytes(&bytes, Int32(bytes.count)) == 1 else { return false }
            bytes[0] &= 0x7f
            guard let number = BN_bin2bn(bytes, Int32(bytes.count), nil) else { return false }
            defer { BN_free(number) }
            return BN_to_ASN1_INTEGER(number, X509_get_serialNumber(certificate)) != nil
        }

        /// Whether `host` is an IPv4 or IPv6 address rather than a name.
        static func isAddress(_ host: String) -> Bool {
            host.contains(":") || (!host.isEmpty && host.allSatisfy { $0 == "." || $0.isASCII && $0.isNumber })
        }
    }
#endif

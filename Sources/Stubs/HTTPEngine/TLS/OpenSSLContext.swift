#if canImport(COpenSSL)
    import COpenSSL

    /// A listener's OpenSSL context: its identity loaded once, a session made from it per accepted socket.
    final class OpenSSLContext: TLSServerContext {
        private let context: OpaquePointer
        private let handshake: TLSIdentity.Handshake

        init(_ identity: TLSIdentity) throws(TLSError) {
            guard let context = SSL_CTX_new(TLS_server_method()) else { throw OpenSSLErrors.take("SSL_CTX_new") }
            self.context = context
            handshake = identity.handshake
            // TLS 1.x is 0x0301 + x on the wire.
            let (lowest, highest) = (identity.versions.lowerBound.rawValue, identity.versions.upperBound.rawValue)
            guard copenssl_set_versions(context, TLS1_VERSION + Int32(lowest), TLS1_VERSION + Int32(highest)) == 1
            else { throw OpenSSLErrors.take("protocol versions") }
            // TLS 1.1 needs SHA-1 and the ciphers of its day, which the default security level refuses.
            if identity.versions.lowerBound < .tls12 { SSL_CTX_set_security_level(context, 0) }
            // Every connection handshakes in full: no session state kept between them, none to go stale.
            copenssl_set_session_cache_mode(context, Int(SSL_SESS_CACHE_OFF))
            copenssl_no_tickets_or_renegotiation(context)
            let chain = try PEM.certificates(identity.certificateChainPEM)
            defer { for certificate in chain { X509_free(certificate) } }
            let leaf = chain[0]  // `PEM.certificates` throws rather than return none
            guard SSL_CTX_use_certificate(context, leaf) == 1 else { throw OpenSSLErrors.take("the certificate") }
            for intermediate in chain.dropFirst() {
                // SSL_CTX_add1_chain_cert is a macro: SSL_CTX_ctrl(SSL_CTRL_CHAIN_CERT, 1, x509).
                guard SSL_CTX_ctrl(context, SSL_CTRL_CHAIN_CERT, 1, UnsafeMutableRawPointer(intermediate)) == 1 else {
                    throw OpenSSLErrors.take("the certificate chain")
                }
            }
            let key = try PEM.privateKey(identity.privateKeyPEM)
            defer { EVP_PKEY_free(key) }
            guard SSL_CTX_use_PrivateKey(context, key) == 1, SSL_CTX_check_private_key(context) == 1 else {
                throw OpenSSLErrors.take("the private key does not match the certificate")
            }
        }

        deinit {
            SSL_CTX_free(context)
        }

        func session(on socket: Socket) throws(TLSError) -> any TLSSession {
            try OpenSSLSession(context: context, socket: socket, handshake: handshake)
        }
    }

    /// OpenSSL's error queue, read into a `TLSError`.
    enum OpenSSLErrors {
        /// Empties this thread's error queue into one error: `doing`, then each reason OpenSSL gave.
        static func take(_ doing: String) -> TLSError {
            var reasons: [String] = []
            while case let code = ERR_get_error(), code != 0 {
                if let reason = ERR_reason_error_string(code) {
                    reasons.append(String(cString: reason))
                } else {
                    reasons.append("error \(code)")
                }
            }
            return TLSError(reasons.isEmpty ? doing : "\(doing): \(reasons.joined(separator: "; "))")
        }
    }
#endif

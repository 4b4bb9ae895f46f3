#if canImport(COpenSSL)
    import COpenSSL
    import Foundation

    /// A TLS client for tests, on Linux through OpenSSL: it verifies the server's certificate against an authority
    /// file and a host name as a strict client would, then sends and reads plaintext. The bytes travel through a
    /// `RawHTTPClient`, so every wait parks the task instead of blocking a thread.
    package final class TLSTestClient {
        /// Why the handshake or a record failed, in OpenSSL's words (`certificate verify failed: unable to get local
        /// issuer certificate`).
        package struct Failure: Error, CustomStringConvertible {
            package let description: String
        }

        private let raw: RawHTTPClient
        private let context: OpaquePointer
        private let ssl: OpaquePointer
        private let incoming: OpaquePointer
        private let outgoing: OpaquePointer

        /// Connects to `127.0.0.1:port` and handshakes, asking for `host` (sent as the server name unless it is an
        /// address) and verifying the certificate against `authority` (a PEM file) and `host`; nil: the
        /// system's authorities.
        /// - Parameter versions: the TLS 1.x versions offered, by their minor number (`2...3`: TLS 1.2 and 1.3).
        /// - Throws: `Failure` when the handshake fails, `RawHTTPClient.ClientError` when the connection does.
        /// - Parameter verifying: false goes on past a certificate it cannot verify (`verifyFailure` then says why),
        ///   as a client that decides for itself does.
        package init(
            port: Int, authority: String?, host: String = "localhost", versions: ClosedRange<Int32> = 2...3,
            verifying: Bool = true, timeout: Int = 60
        ) async throws {
            raw = try await RawHTTPClient(port: port, timeout: timeout)
            context = SSL_CTX_new(TLS_client_method())!
            // TLS 1.x is 0x0301 + x on the wire; a session takes its context's versions when it is made.
            _ = copenssl_set_versions(context, TLS1_VERSION + versions.lowerBound, TLS1_VERSION + versions.upperBound)
            ssl = SSL_new(context)!
            incoming = BIO_new(BIO_s_mem())!
            outgoing = BIO_new(BIO_s_mem())!
            copenssl_mem_eof_retries(incoming)
            copenssl_mem_eof_retries(outgoing)
            SSL_set_bio(ssl, incoming, outgoing)
            if let authority {
                _ = SSL_CTX_load_verify_locations(context, authority, nil)
            } else {
                _ = SSL_CTX_set_default_verify_paths(context)
            }
            SSL_set_verify(ssl, verifying ? SSL_VERIFY_PEER : SSL_VERIFY_NONE, nil)
            if host.contains(":") || host.allSatisfy({ $0 == "." || $0.isNumber }) {
                _ = X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host)
            } else {
                _ = copenssl_set_server_name(ssl, host)
                _ = SSL_set1_host(ssl, host)
            }
            SSL_set_connect_state(ssl)
            try await handshake()
        }

        deinit {
            SSL_free(ssl)
            SSL_CTX_free(context)
        }

        /// The pin of the server's key: `sha256//` and the Base64 of the SHA-256 of its SubjectPublicKeyInfo.
        package var serverKeyPin: String {
            guard let certificate = SSL_get1_peer_certificate(ssl) else { return "(no certificate)" }
            defer { X509_free(certificate) }
            let key = X509_get_pubkey(certificate)
            defer { EVP_PKEY_free(key) }
            var der: UnsafeMutablePointer<UInt8>?
            let count = i2d_PUBKEY(key, &der)
            guard count > 0, let der else { return "(no key)" }
            defer { copenssl_free(der) }
            var digest = [UInt8](repeating: 0, count: 32)
            var length: UInt32 = 0
            _ = EVP_Digest(der, Int(count), &digest, &length, EVP_sha256(), nil)
            return "sha256//" + Data(digest).base64EncodedString()
        }

        /// Why the server's certificate did not verify for the host (OpenSSL's words), nil when it did.
        package var verifyFailure: String? {
            let result = SSL_get_verify_result(ssl)
            return result == X509_V_OK ? nil : String(cString: X509_verify_cert_error_string(result))
        }

        /// The protocol version agreed (`TLSv1.3`).
        package var version: String { String(cString: SSL_get_version(ssl)) }

        private func handshake() async throws {
            while true {
                ERR_clear_error()
                let result = SSL_do_handshake(ssl)
                try await flush()
                if result == 1 { return }
                guard SSL_get_error(ssl, result) == SSL_ERROR_WANT_READ else { throw failure("handshake") }
                guard let bytes = try await raw.readAvailable() else {
                    throw Failure(description: "handshake: the server closed the connection")
                }
                _ = bytes.withUnsafeBytes { BIO_write(incoming, $0.baseAddress, Int32($0.count)) }
            }
        }

        package func send(_ text: String) async throws {
            let bytes = Array(text.utf8)
            var written = 0
            ERR_clear_error()
            guard bytes.withUnsafeBytes({ SSL_write_ex(ssl, $0.baseAddress, $0.count, &written) }) == 1 else {
                throw failure("write")
            }
            try await flush()
        }

        /// Closes the TCP connection without a `close_notify`, as a client that goes away does.
        package func hangUp() async {
            await raw.hangUp()
        }

        /// Sends `close_notify` and keeps the connection open: the server must end it.
        package func closeNotify() async throws {
            ERR_clear_error()
            _ = SSL_shutdown(ssl)
            try await flush()
        }

        /// The plaintext until the server's `close_notify` or the connection's end.
        package func readUntilClosed() async throws -> [UInt8] {
            var plaintext: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 16_384)
            while true {
                var count = 0
                ERR_clear_error()
                if chunk.withUnsafeMutableBytes({ SSL_read_ex(ssl, $0.baseAddress, $0.count, &count) }) == 1 {
                    plaintext += chunk[0..<count]
                    continue
                }
                switch SSL_get_error(ssl, 0) {
                case SSL_ERROR_ZERO_RETURN:
                    return plaintext
                case SSL_ERROR_WANT_READ:
                    guard let bytes = try await raw.readAvailable() else { return plaintext }
                    _ = bytes.withUnsafeBytes { BIO_write(incoming, $0.baseAddress, Int32($0.count)) }
                default:
                    throw failure("read")
                }
            }
        }

        /// Sends the records OpenSSL made.
        private func flush() async throws {
            let count = Int(copenssl_pending(outgoing))
            guard count > 0 else { return }
            var bytes = [UInt8](repeating: 0, count: count)
            let read = bytes.withUnsafeMutableBytes { BIO_read(outgoing, $0.baseAddress, Int32(count)) }
            try await raw.send(Array(bytes.prefix(Int(max(0, read)))))
        }

        private func failure(_ doing: String) -> Failure {
            var reasons: [String] = []
            while case let code = ERR_get_error(), code != 0 {
                reasons.append(ERR_reason_error_string(code).map { String(cString: $0) } ?? "error \(code)")
            }
            let verify = SSL_get_verify_result(ssl)
            if verify != X509_V_OK { reasons.append(String(cString: X509_verify_cert_error_string(verify))) }
            return Failure(description: "\(doing): " + (reasons.isEmpty ? "failed" : reasons.joined(separator: ": ")))
        }
    }
#endif

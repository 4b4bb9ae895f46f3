#if canImport(COpenSSL)
    import COpenSSL

    /// PEM text to and from OpenSSL's certificates and keys (`PEMText` reads and writes PEM without OpenSSL).
    enum PEM {
        /// Every certificate in `text`, in order; the caller frees each.
        static func certificates(_ text: String) throws(TLSError) -> [OpaquePointer] {
            let bio = try memory(text)
            defer { BIO_free(bio) }
            var certificates: [OpaquePointer] = []
            while let certificate = PEM_read_bio_X509(bio, nil, nil, nil) {
                certificates.append(certificate)
            }
            ERR_clear_error()  // the end of the text, reported as an error
            guard !certificates.isEmpty else { throw TLSError("no PEM certificate in the text") }
            return certificates
        }

        /// The private key in `text`; the caller frees it.
        static func privateKey(_ text: String) throws(TLSError) -> OpaquePointer {
            let bio = try memory(text)
            defer { BIO_free(bio) }
            guard let key = PEM_read_bio_PrivateKey(bio, nil, nil, nil) else {
                throw OpenSSLErrors.take("no PEM private key in the text")
            }
            return key
        }

        static func text(privateKey: OpaquePointer) -> String {
            write { PEM_write_bio_PrivateKey($0, privateKey, nil, nil, 0, nil, nil) }
        }

        private static func memory(_ text: String) throws(TLSError) -> OpaquePointer {
            let bytes = Array(text.utf8)
            // BIO_new_mem_buf reads the buffer in place: a memory BIO of its own copies it instead.
            guard let bio = BIO_new(BIO_s_mem()) else { throw OpenSSLErrors.take("BIO_new") }
            _ = bytes.withUnsafeBytes { BIO_write(bio, $0.baseAddress, Int32($0.count)) }
            return bio
        }

        private static func write(_ body: (OpaquePointer) -> Int32) -> String {
            guard let bio = BIO_new(BIO_s_mem()) else { return "" }
            defer { BIO_free(bio) }
            _ = body(bio)
            var start: UnsafeMutablePointer<CChar>?
            let count = copenssl_mem_data(bio, &start)
            guard let start, count > 0 else { return "" }
            return String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
        }
    }
#endif

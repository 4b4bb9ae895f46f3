#if canImport(COpenSSL)
    import COpenSSL
    import Glibc

    /// The handshake is no request: its bytes leave the connection's idle timer running, so a client that stalls
    /// in it is closed at the idle timeout from its connect.
    ///
    /// One connection's TLS through OpenSSL over two memory buffers: ciphertext the socket gave goes into one,
    /// records OpenSSL makes come out of the other and go to the socket with the engine's own calls. OpenSSL never
    /// touches the socket, so a peer that hung up is an `EPIPE` as on a plain connection, and the records of a
    /// whole answer leave in one `sendmsg`.
    final class OpenSSLSession: TLSSession {
        let socket: Socket
        private let ssl: OpaquePointer
        /// Ciphertext from the socket, for OpenSSL to read.
        private let incoming: OpaquePointer
        /// Records OpenSSL wrote, for the socket.
        private let outgoing: OpaquePointer
        /// Records taken from `outgoing` that the socket has not taken yet, from `pendingOffset`.
        private var pending: [UInt8] = []
        private var pendingOffset = 0
        /// Plaintext gathered into one record instead of one per buffer.
        private var staging: [UInt8] = []
        /// The socket reached its end (or failed to read): what OpenSSL holds is all that will come.
        private var socketEnded = false
        /// The client sent `close_notify`.
        private var peerClosed = false
        private var firstByteSeen = false
        /// A plain HTTP request came: its 400 goes out, then the write side closes, and what the client still sends
        /// is read and dropped until it closes (or the idle timeout), so that no unread byte turns the close into a
        /// reset that would hide the 400.
        private var refusedPlainHTTP = false
        private var wroteEnd = false
        /// Ciphertext (or the plain 400) the socket took, in all.
        private(set) var bytesWritten = 0
        private(set) var holdsInput = false
        private let handshake: TLSIdentity.Handshake

        /// Most plaintext taken in one `send`: the records it makes wait in memory until the socket takes them.
        static let sendLimit = 65_536
        /// A TLS record's most plaintext.
        static let recordSize = 16_384

        init(context: OpaquePointer, socket: Socket, handshake: TLSIdentity.Handshake) throws(TLSError) {
            guard let ssl = SSL_new(context) else { throw OpenSSLErrors.take("SSL_new") }
            guard let incoming = BIO_new(BIO_s_mem()) else {
                SSL_free(ssl)
                throw OpenSSLErrors.take("BIO_new")
            }
            guard let outgoing = BIO_new(BIO_s_mem()) else {
                BIO_free(incoming)
                SSL_free(ssl)
                throw OpenSSLErrors.take("BIO_new")
            }
            // An empty buffer means "more later", not the end of the stream.
            copenssl_mem_eof_retries(incoming)
            copenssl_mem_eof_retries(outgoing)
            SSL_set_bio(ssl, incoming, outgoing)  // the session owns both from here
            SSL_set_accept_state(ssl)
            self.ssl = ssl
            self.incoming = incoming
            self.outgoing = outgoing
            self.socket = socket
            self.handshake = handshake
        }

        deinit {
            SSL_free(ssl)
        }

        var hasPendingOutput: Bool { pendingOffset < pending.count }

        func read(into scratch: UnsafeMutableRawBufferPointer) throws -> Int? {
            if !socketEnded, !peerClosed { try pull(into: scratch) }
            if refusedPlainHTTP {
                try flushPending()
                return socketEnded ? 0 : nil
            }
            var filled = 0
            reading: while filled < scratch.count {
                var count = 0
                ERR_clear_error()
                if SSL_read_ex(ssl, scratch.baseAddress! + filled, scratch.count - filled, &count) == 1 {
                    filled += count
                    continue
                }
                switch SSL_get_error(ssl, 0) {
                case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
                    break reading
                case SSL_ERROR_ZERO_RETURN:
                    peerClosed = true
                    break reading
                default:
                    let error = OpenSSLErrors.take(
                        SSL_is_init_finished(ssl) == 1 ? "TLS record" : "TLS handshake")
                    // The alert OpenSSL wrote tells the client why.
                    try? flushPending()
                    throw error
                }
            }
            // A full buffer may have left records in OpenSSL; a close_notify read with data must still be acted on.
            holdsInput = filled == scratch.count || (peerClosed && filled > 0)
            try flushPending()  // the handshake's answer, or a key update's
            if filled > 0 { return filled }
            if peerClosed || socketEnded { return 0 }
            return nil
        }

        /// Moves one read's worth of ciphertext from the socket into OpenSSL; `scratch` is only borrowed.
        private func pull(into scratch: UnsafeMutableRawBufferPointer) throws {
            // A failed read throws: the connection closes, and nothing here is read again.
            guard let count = try socket.read(into: scratch) else { return }
            guard count > 0 else {
                socketEnded = true
                return
            }
            if refusedPlainHTTP { return }  // dropped
            if !firstByteSeen {
                firstByteSeen = true
                if PlainHTTPOnTLS.starts(scratch[0]) {
                    refusedPlainHTTP = true
                    refusePlainHTTP()
                    return
                }
            }
            switch handshake {
            case .answered: break
            case .reset:
                socket.setResetOnClose()
                throw TLSError("the hello is answered with a reset (handshake-reset)")
            case .stalled: return  // read and dropped: OpenSSL never sees a hello to answer
            }
            _ = BIO_write(incoming, scratch.baseAddress, Int32(count))
        }

        /// Answers a plain HTTP request on the TLS port (`PlainHTTPOnTLS`), then ends the write side
        /// (`flushPending`).
        private func refusePlainHTTP() {
            pending.append(contentsOf: PlainHTTPOnTLS.refusal())
            try? flushPending()
        }

        func send(_ vectors: [iovec]) throws -> Int {
            try flushPending()
            guard !hasPendingOutput, SSL_is_init_finished(ssl) == 1 else { return 0 }
            var taken = 0
            staging.removeAll(keepingCapacity: true)
            for vector in vectors {
                var offset = 0
                while offset < vector.iov_len, taken + staging.count < Self.sendLimit {
                    let room = min(Self.recordSize - staging.count, vector.iov_len - offset)
                    let base = vector.iov_base!.assumingMemoryBound(to: UInt8.self) + offset
                    staging.append(contentsOf: UnsafeBufferPointer(start: base, count: room))
                    offset += room
                    if staging.count == Self.recordSize { taken += try seal() }
                }
            }
            taken += try seal()
            try flushPending()
            return taken
        }

        /// Encrypts `staging` into records in `outgoing`.
        private func seal() throws -> Int {
            guard !staging.isEmpty else { return 0 }
            var written = 0
            ERR_clear_error()
            let ok = staging.withUnsafeBytes { SSL_write_ex(ssl, $0.baseAddress, $0.count, &written) }
            // Into memory after the handshake, a write takes everything or fails.
            guard ok == 1 else { throw OpenSSLErrors.take("TLS write") }
            staging.removeAll(keepingCapacity: true)
            return written
        }

        func flushPending() throws {
            let made = Int(copenssl_pending(outgoing))
            if made > 0 {
                if pendingOffset == pending.count {
                    pending.removeAll(keepingCapacity: true)
                    pendingOffset = 0
                }
                let start = pending.count
                pending.append(contentsOf: repeatElement(0, count: made))
                let read = pending.withUnsafeMutableBytes { BIO_read(outgoing, $0.baseAddress! + start, Int32(made)) }
                pending.removeLast(made - max(0, Int(read)))
            }
            while hasPendingOutput {
                let written = try pending.withUnsafeBytes { raw in
                    try socket.send([
                        iovec(
                            iov_base: UnsafeMutableRawPointer(mutating: raw.baseAddress! + pendingOffset),
                            iov_len: raw.count - pendingOffset)
                    ])
                }
                guard written > 0 else { return }
                pendingOffset += written
                bytesWritten += written
            }
            if refusedPlainHTTP, !wroteEnd {
                wroteEnd = true
                socket.shutdownWrite()
            }
        }

        func closeNotify() {
            ERR_clear_error()
            if SSL_is_init_finished(ssl) == 1 { _ = SSL_shutdown(ssl) }
            ERR_clear_error()
            try? flushPending()
        }
    }
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a connection's bytes go: straight to its socket, or through a TLS session over it. The connection reads
/// and writes plaintext through this seam and knows nothing else of TLS.
enum ConnectionTransport {
    case plain(Socket)
    case tls(any TLSSession)

    var socket: Socket {
        switch self {
        case .plain(let socket): socket
        case .tls(let session): session.socket
        }
    }

    /// Reads what is available into `scratch`.
    /// - Returns: the byte count, 0 at end of stream, nil when nothing is available yet.
    func read(into scratch: UnsafeMutableRawBufferPointer) throws -> Int? {
        switch self {
        case .plain(let socket): try socket.read(into: scratch)
        case .tls(let session): try session.read(into: scratch)
        }
    }

    /// Takes what it can now from the buffers, in order.
    /// - Returns: the number of bytes taken, 0 when the socket cannot take more yet.
    func send(_ vectors: [iovec], more: Bool) throws -> Int {
        switch self {
        case .plain(let socket): try socket.send(vectors, more: more)
        case .tls(let session): try session.send(vectors)
        }
    }

    /// Takes what it can now of `file` from `offset`.
    func send(_ file: FileBody, from offset: Int) throws -> Int {
        switch self {
        case .plain(let socket):
            return try socket.send(file, from: offset)
        case .tls(let session):
            // TLS encrypts in the process: the file's bytes, as a buffer.
            return try file.bytes.withUnsafeBytes { raw in
                try session.send([
                    iovec(
                        iov_base: UnsafeMutableRawPointer(mutating: raw.baseAddress! + offset),
                        iov_len: raw.count - offset)
                ])
            }
        }
    }

    /// Bytes taken that the socket has not taken yet (TLS records made ahead of it).
    var hasPendingOutput: Bool {
        switch self {
        case .plain: false
        case .tls(let session): session.hasPendingOutput
        }
    }

    /// Bytes a TLS session wrote to the socket, in all (0 for a plain socket, whose writes `send` counts).
    var tlsBytesWritten: Int {
        switch self {
        case .plain: 0
        case .tls(let session): session.bytesWritten
        }
    }

    /// Input read from the socket but not handed out yet: the connection reads again before waiting.
    var holdsInput: Bool {
        switch self {
        case .plain: false
        case .tls(let session): session.holdsInput
        }
    }

    /// Writes what `hasPendingOutput` counts, as far as the socket takes it.
    func flushPending() throws {
        if case .tls(let session) = self { try session.flushPending() }
    }

    /// Ends writing: the peer reads the end of the stream (TLS: after a `close_notify`).
    func shutdownWrite() {
        if case .tls(let session) = self { session.closeNotify() }
        socket.shutdownWrite()
    }

    func setResetOnClose() {
        socket.setResetOnClose()
    }

    func close() {
        socket.close()
    }
}

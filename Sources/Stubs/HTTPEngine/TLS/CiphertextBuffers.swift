#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The socket side of a TLS session whose library reads and writes through callbacks (Secure Transport on Apple
/// platforms): ciphertext from the socket waits in memory until the library asks for it, and the records it writes
/// wait until the socket takes them, so the library never touches the socket. What arrives first is checked as
/// `OpenSSLSession` checks it: a plain HTTP request gets its 400 (`PlainHTTPOnTLS`) and the write side then ends,
/// and the listener's handshake failure (a reset, a stall) is applied.
final class CiphertextBuffers {
    let socket: Socket
    private let handshake: TLSIdentity.Handshake
    private var incoming: [UInt8] = []
    private var incomingOffset = 0
    private var pending: [UInt8] = []
    private var pendingOffset = 0
    private var firstByteSeen = false
    private var wroteEnd = false
    /// The socket reached its end: what `incoming` holds is all that will come.
    private(set) var socketEnded = false
    /// A plain HTTP request came and was answered; what the client still sends is read and dropped.
    private(set) var refusedPlainHTTP = false
    /// Bytes the socket took, in all.
    private(set) var bytesWritten = 0

    init(socket: Socket, handshake: TLSIdentity.Handshake) {
        self.socket = socket
        self.handshake = handshake
    }

    /// Ciphertext waiting for the library.
    var available: Int { incoming.count - incomingOffset }

    var hasPendingOutput: Bool { pendingOffset < pending.count }

    /// Reads what the socket has into `incoming`; `scratch` is only borrowed.
    /// - Throws: `SocketError` when the read fails; `TLSError` when the listener resets hellos.
    func pull(into scratch: UnsafeMutableRawBufferPointer) throws {
        guard !socketEnded, let count = try socket.read(into: scratch) else { return }
        guard count > 0 else {
            socketEnded = true
            return
        }
        if refusedPlainHTTP { return }
        if !firstByteSeen {
            firstByteSeen = true
            if PlainHTTPOnTLS.starts(scratch[0]) {
                refusedPlainHTTP = true
                pending.append(contentsOf: PlainHTTPOnTLS.refusal())
                try? flushPending()
                return
            }
        }
        switch handshake {
        case .answered: break
        case .reset:
            socket.setResetOnClose()
            throw TLSError("the hello is answered with a reset (handshake-reset)")
        case .stalled: return  // read and dropped: the library never sees a hello to answer
        }
        if incomingOffset == incoming.count {
            incoming.removeAll(keepingCapacity: true)
            incomingOffset = 0
        }
        incoming.append(contentsOf: scratch[0..<count])
    }

    /// Copies the oldest waiting ciphertext into `destination`, as much as fits.
    /// - Returns: the byte count: less than `destination.count` when no more is waiting.
    func supply(_ destination: UnsafeMutableRawBufferPointer) -> Int {
        let count = min(destination.count, available)
        guard count > 0 else { return 0 }
        incoming.withUnsafeBytes { source in
            destination.baseAddress!.copyMemory(from: source.baseAddress! + incomingOffset, byteCount: count)
        }
        incomingOffset += count
        return count
    }

    /// Keeps records the library wrote until the socket takes them.
    func take(_ records: UnsafeRawBufferPointer) {
        pending.append(contentsOf: records)
    }

    /// Writes what the socket takes now of the waiting records; after a refused plain request, then ends the write
    /// side.
    /// - Throws: `SocketError` when the connection failed.
    func flushPending() throws {
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
        pending.removeAll(keepingCapacity: true)
        pendingOffset = 0
        if refusedPlainHTTP, !wroteEnd {
            wroteEnd = true
            socket.shutdownWrite()
        }
    }
}

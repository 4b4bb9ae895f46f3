#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Bytes waiting to be written to a socket, kept as the chunks they came in so that bodies are never copied;
/// a flush hands up to 16 chunks to one `sendmsg` (`writev` on Darwin).
struct OutputQueue {
    private var chunks: [[UInt8]] = []
    /// Bytes of `chunks[0]` already written.
    private var offset = 0
    private(set) var byteCount = 0

    var isEmpty: Bool { byteCount == 0 }

    mutating func append(_ chunk: [UInt8]) {
        guard !chunk.isEmpty else { return }
        chunks.append(chunk)
        byteCount += chunk.count
    }

    mutating func append(_ text: String) {
        append(Array(text.utf8))
    }

    /// Writes as much as the socket takes now.
    /// - Throws: `SocketError` when the connection failed.
    /// - Returns: how many bytes the socket took.
    @discardableResult
    mutating func flush(to socket: Socket) throws -> Int {
        var total = 0
        while !chunks.isEmpty {
            var vectors: [iovec] = []
            vectors.reserveCapacity(16)
            let written = try Self.withVectors(chunks.prefix(16), offset: offset, &vectors) { vectors in
                try socket.send(vectors)
            }
            guard written > 0 else { return total }
            consume(written)
            total += written
        }
        return total
    }

    private mutating func consume(_ count: Int) {
        byteCount -= count
        var remaining = count
        while remaining > 0, let first = chunks.first {
            let left = first.count - offset
            if remaining < left {
                offset += remaining
                return
            }
            remaining -= left
            chunks.removeFirst()
            offset = 0
        }
    }

    /// Calls `body` with one `iovec` per chunk, each valid for the duration of the call.
    private static func withVectors<R>(
        _ chunks: ArraySlice<[UInt8]>, offset: Int, _ vectors: inout [iovec], _ body: ([iovec]) throws -> R
    ) throws -> R {
        guard let first = chunks.first else { return try body(vectors) }
        return try first.withUnsafeBytes { raw in
            vectors.append(
                iovec(
                    iov_base: UnsafeMutableRawPointer(mutating: raw.baseAddress! + offset), iov_len: raw.count - offset)
            )
            return try withVectors(chunks.dropFirst(), offset: 0, &vectors, body)
        }
    }
}

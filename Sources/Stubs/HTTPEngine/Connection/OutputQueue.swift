#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Bytes waiting to be written to a socket, kept as the chunks they came in so that bodies are never copied;
/// a flush hands up to 16 chunks to one `sendmsg` (`writev` on Darwin), and a `FileBody` to `sendfile`.
struct OutputQueue {
    enum Chunk {
        case bytes([UInt8])
        case file(FileBody)

        var count: Int {
            switch self {
            case .bytes(let bytes): bytes.count
            case .file(let file): file.bytes.count
            }
        }
    }

    private var chunks: [Chunk] = []
    /// Bytes of `chunks[0]` already written.
    private var offset = 0
    private(set) var byteCount = 0

    var isEmpty: Bool { byteCount == 0 }

    mutating func append(_ chunk: [UInt8]) {
        guard !chunk.isEmpty else { return }
        chunks.append(.bytes(chunk))
        byteCount += chunk.count
    }

    mutating func append(_ text: String) {
        append(Array(text.utf8))
    }

    /// Queues a body to be sent from its file.
    mutating func append(_ file: FileBody) {
        guard !file.bytes.isEmpty else { return }
        chunks.append(.file(file))
        byteCount += file.bytes.count
    }

    /// Writes as much as the transport takes now, after what it still holds.
    /// - Throws: `SocketError` (or `TLSError`) when the connection failed.
    /// - Returns: how many bytes of the queue the transport took.
    @discardableResult
    mutating func flush(to transport: ConnectionTransport) throws -> Int {
        try transport.flushPending()
        var total = 0
        while let first = chunks.first {
            let written: Int
            if case .file(let file) = first {
                written = try transport.send(file, from: offset)
            } else {
                var vectors: [iovec] = []
                vectors.reserveCapacity(16)
                let run = chunks.prefix(16).prefix { if case .bytes = $0 { true } else { false } }
                // A file follows: the head waits for it (MSG_MORE), as one segment instead of two.
                let more = run.count < chunks.count && run.count < 16
                written = try Self.withVectors(run, offset: offset, &vectors) { vectors in
                    try transport.send(vectors, more: more)
                }
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

    /// Calls `body` with one `iovec` per chunk of bytes, each valid for the duration of the call.
    private static func withVectors<R>(
        _ chunks: ArraySlice<Chunk>, offset: Int, _ vectors: inout [iovec], _ body: ([iovec]) throws -> R
    ) throws -> R {
        guard let first = chunks.first, case .bytes(let bytes) = first else { return try body(vectors) }
        return try bytes.withUnsafeBytes { raw in
            vectors.append(
                iovec(
                    iov_base: UnsafeMutableRawPointer(mutating: raw.baseAddress! + offset), iov_len: raw.count - offset)
            )
            return try withVectors(chunks.dropFirst(), offset: 0, &vectors, body)
        }
    }
}

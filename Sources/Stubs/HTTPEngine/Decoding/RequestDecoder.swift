/// Turns the bytes of a connection into requests, incrementally and strictly (RFC 9112).
///
/// Feed it bytes as they arrive with `append`, then call `next()` until it returns nil (more bytes are
/// needed). Scanning resumes where it stopped, so bytes arriving one at a time cost linear time. After an
/// error every later call throws the same error: the connection answers it and closes.

package import HTTPMessages

package struct RequestDecoder {
    /// What the decoder hands over, in order.
    package enum Part: Equatable, Sendable {
        /// The head asked for `Expect: 100-continue` and a body follows: send the interim answer now.
        case continueExpected
        /// A complete request.
        case request(Request)
    }

    /// Most bytes of request line plus header fields (and of a chunked body's trailer section); beyond: 431.
    package let maxHeaderBytes: Int
    /// Most bytes of a request body; beyond: 413.
    package let maxBodyBytes: Int
    /// Most bytes of one chunk-size line, extensions included; beyond: 400.
    package static let maxChunkLineBytes = 4096

    var buffer: [UInt8] = []
    /// Where the unconsumed bytes of `buffer` start.
    var start = 0
    /// Where scanning for the end of a line resumes.
    var scan = 0
    /// Where the line being scanned starts.
    var lineStart = 0
    /// Where the request line starts, past any empty lines before it; nil until one is seen.
    var requestLineStart: Int?
    var phase = Phase.head
    /// The request whose body is being read.
    var pending: Request?
    var body: [UInt8] = []
    private var failure: HTTPError?

    enum Phase: Equatable {
        case head
        case fixedBody(length: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailer(bytes: Int)
    }

    package init(maxHeaderBytes: Int, maxBodyBytes: Int) {
        self.maxHeaderBytes = maxHeaderBytes
        self.maxBodyBytes = maxBodyBytes
    }

    /// Adds bytes that arrived.
    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// The bytes not yet consumed, handed over and forgotten: what followed a request that switched protocols.
    package mutating func takeBuffered() -> [UInt8] {
        defer {
            buffer = []
            (start, scan, lineStart, requestLineStart) = (0, 0, 0, nil)
        }
        return Array(buffer[start...])
    }

    package mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Bytes received and not yet handed over as part of a request.
    package var bufferedByteCount: Int { buffer.count - start }

    /// Whether some of a request has arrived but not all of it.
    package var hasPartialRequest: Bool { bufferedByteCount > 0 || phase != .head || pending != nil }

    /// The next part, or nil when more bytes are needed.
    /// - Throws: `HTTPError` 400, 413, 431, 501 or 505 with what was wrong; then the same error on every call.
    package mutating func next() throws(HTTPError) -> Part? {
        if let failure { throw failure }
        do {
            return try step()
        } catch {
            failure = error
            buffer = []
            start = 0
            throw error
        }
    }

    private mutating func step() throws(HTTPError) -> Part? {
        while true {
            switch phase {
            case .head:
                guard let request = try decodeHead() else { return nil }
                let framing = try Self.framing(of: request, maxBodyBytes: maxBodyBytes)
                switch framing {
                case .none:
                    return .request(request)
                case .length(let length):
                    phase = .fixedBody(length: length)
                case .chunked:
                    phase = .chunkSize
                }
                pending = request
                body = []
                if request.headers["Expect"]?.caseInsensitiveEquals("100-continue") == true {
                    return .continueExpected
                }
            case .fixedBody(let length):
                guard buffer.count - start >= length else { return nil }
                body = Array(buffer[start..<(start + length)])
                start += length
                return finishRequest()
            case .chunkSize, .chunkData, .chunkDataEnd, .trailer:
                guard try decodeChunked() else { return nil }
                return finishRequest()
            }
        }
    }

    private mutating func finishRequest() -> Part? {
        guard var request = pending else { return nil }
        request.body = body
        pending = nil
        body = []
        phase = .head
        scan = start
        lineStart = start
        return .request(request)
    }

    /// Drops consumed bytes before new ones are appended, so the buffer holds at most one request and a bit.
    private mutating func compact() {
        guard start > 0, start == buffer.count || start >= 65_536 else { return }
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 262_144)
        } else {
            buffer.removeFirst(start)
        }
        scan -= start
        lineStart -= start
        requestLineStart = requestLineStart.map { $0 - start }
        start = 0
    }

    /// How the body of a request is delimited.
    enum Framing: Equatable {
        case none
        case length(Int)
        case chunked
    }
}

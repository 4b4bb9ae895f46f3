#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One client connection on the event loop: parses requests in arrival order and queues each answer whole.
final class Connection {
    let socket: Socket
    private unowned let server: StubServer
    private let parser: HTTPRequestParser
    private var input: [UInt8] = []
    /// Where the unconsumed bytes of `input` start.
    private var start = 0
    private var output = OutputQueue()
    private var head: HTTPRequestHead?
    private var date = HTTPDate()
    private(set) var phase = Phase.reading
    /// When the current request's first byte arrived, for the header timeout.
    private var requestStarted: Double?
    private var lastActivity: Double
    /// The client closed its side: answer what is buffered, then close.
    private var peerFinished = false

    /// What the connection is doing.
    enum Phase {
        case reading
        /// A reply waits for its `delayMs`; later requests wait behind it.
        case delaying(until: Double, StubServer.Reply, HTTPRequest, began: Double)
        /// A `hang` fault: input is read and dropped until the client leaves.
        case hanging
        /// Answered with an error: output drains, then input drains until `until`, then the socket closes.
        case lingering(until: Double)
        /// Output drains, then the socket closes.
        case closingAfterFlush
        case closed
    }

    init(socket: Socket, server: StubServer, now: Double) {
        self.socket = socket
        self.server = server
        parser = HTTPRequestParser(
            maxHeaderBytes: server.configuration.maxHeaderBytes, maxBodyBytes: server.configuration.maxBodyBytes)
        lastActivity = now
    }

    var wantsRead: Bool {
        switch phase {
        case .reading: output.byteCount < 1 << 20
        case .hanging, .lingering: true
        case .delaying, .closingAfterFlush, .closed: false
        }
    }

    var wantsWrite: Bool { !output.isEmpty }

    /// The next moment a timer of this connection fires.
    var deadline: Double {
        switch phase {
        case .delaying(let until, _, _, _), .lingering(let until):
            return until
        case .reading:
            if let requestStarted { return requestStarted + Double(server.configuration.headerTimeout.milliseconds) }
            return wantsWrite ? .infinity : lastActivity + Double(server.configuration.idleTimeout.milliseconds)
        case .hanging, .closingAfterFlush, .closed:
            return .infinity
        }
    }

    // MARK: Events from the loop

    /// Reads what arrived and handles every complete request in it.
    func readable(scratch: UnsafeMutableRawBufferPointer, now: Double) {
        // Called while not reading only for a hang-up or an error (poll reports those unasked): the client is
        // gone, so there is no one to answer, and waiting would have poll report it again at once.
        guard wantsRead else { return close() }
        do {
            while let count = try socket.read(into: scratch) {
                if count == 0 {
                    peerFinished = true
                    break
                }
                lastActivity = now
                if case .reading = phase {
                    input.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[0..<count]))
                }
                if count < scratch.count { break }
            }
        } catch {
            return close()
        }
        switch phase {
        case .reading: process(now: now)
        case .hanging, .lingering: if peerFinished { close() }
        case .delaying, .closingAfterFlush, .closed: break
        }
    }

    func writable(now: Double) {
        flush()
        if case .reading = phase, !wantsWrite { process(now: now) }
    }

    /// Fires due timers: a delayed reply, the header and idle timeouts, the end of lingering.
    func tick(now: Double) {
        guard now >= deadline else { return }
        switch phase {
        case .delaying(_, let reply, let request, let began):
            phase = .reading
            answer(request, with: reply, began: began, now: now)
            if case .reading = phase { process(now: now) }
        case .reading:
            if requestStarted != nil {
                let limit = server.configuration.headerTimeout
                fail(HTTPError(.requestTimeout, "request not complete within \(limit) of its first byte"), now: now)
            } else {
                close()
            }
        case .lingering:
            close()
        case .hanging, .closingAfterFlush, .closed:
            break
        }
    }

    var isClosed: Bool {
        if case .closed = phase { return true }
        return false
    }

    func close() {
        guard !isClosed else { return }
        phase = .closed
        socket.close()
    }

    // MARK: Requests

    /// Parses and answers buffered requests until one is incomplete or the connection stops reading.
    private func process(now: Double) {
        while case .reading = phase, output.byteCount < 1 << 20 {
            do {
                guard let request = try nextRequest(now: now) else { break }
                let reply = server.reply(to: request)
                if reply.delayMs > 0 {
                    phase = .delaying(until: now + Double(reply.delayMs), reply, request, began: now)
                } else {
                    answer(request, with: reply, began: now, now: now)
                }
            } catch {
                fail(error, now: now)
            }
        }
        compactInput()
        if peerFinished, case .reading = phase {
            phase = .closingAfterFlush
        }
        flush()
    }

    /// The next complete request in the buffer, or nil when more bytes are needed.
    private func nextRequest(now: Double) throws(HTTPError) -> HTTPRequest? {
        if head == nil {
            guard let end = parser.headEnd(in: input, from: start) else {
                if input.count - start > parser.maxHeaderBytes { throw tooLargeHead() }
                if input.count > start, requestStarted == nil { requestStarted = now }
                return nil
            }
            guard end - start <= parser.maxHeaderBytes else { throw tooLargeHead() }
            let parsed = try parser.parseHead(input[start..<end])
            start = end
            head = parsed
            if parsed.expectsContinue, parsed.framing != .none {
                output.append("HTTP/1.1 100 Continue\r\n\r\n")
            }
        }
        guard let head else { return nil }
        let body: [UInt8]
        switch head.framing {
        case .none:
            body = []
        case .length(let length):
            guard input.count - start >= length else { return nil }
            body = Array(input[start..<(start + length)])
            start += length
        case .chunked:
            guard let (decoded, end) = try ChunkedBody.decode(input, from: start, limit: parser.maxBodyBytes) else {
                return nil
            }
            body = decoded
            start = end
        }
        self.head = nil
        requestStarted = input.count > start ? now : nil
        return try HTTPRequest(
            method: head.method, target: head.target, minorVersion: head.minorVersion, headers: head.headers, body: body
        )
    }

    private func tooLargeHead() -> HTTPError {
        HTTPError(.headerFieldsTooLarge, "request line and headers exceed \(parser.maxHeaderBytes) bytes")
    }

    /// Queues the reply's bytes, or carries out its fault, and logs the request.
    private func answer(_ request: HTTPRequest, with reply: StubServer.Reply, began: Double, now: Double) {
        let keepAlive = request.keepAlive
        let response = reply.response
        switch reply.fault {
        case nil:
            output.append(response.head(date: date.now(), keepAlive: keepAlive))
            if request.method != "HEAD" { output.append(response.body) }
            if !keepAlive { phase = .closingAfterFlush }
        case .drop:
            // Answers queued for earlier pipelined requests still go out first.
            phase = .closingAfterFlush
        case .reset:
            socket.setResetOnClose()
            phase = .closingAfterFlush
        case .truncate:
            let bytes = response.serialized(date: date.now(), keepAlive: false)
            output.append(Array(bytes.prefix(bytes.count - max(1, response.body.count - response.body.count / 2))))
            phase = .closingAfterFlush
        case .malformed:
            output.append("HTTP/1.1 2x0 NOT-HTTP\r\nContent-Length: banana\r\n\r\n{\"res")
            phase = .closingAfterFlush
        case .hang:
            phase = .hanging
        }
        flush()
        server.configuration.log?(
            StubServer.RequestLog(
                method: request.method, target: request.target, stub: reply.stub, variant: reply.variant,
                status: reply.fault == nil ? response.status.code : nil, fault: reply.fault?.rawValue,
                milliseconds: monotonicMilliseconds() - began))
    }

    /// Answers a request the server refuses, then closes after a lingering drain of the input.
    private func fail(_ error: HTTPError, now: Double) {
        output.append(HTTPResponse.error(error).serialized(date: date.now(), keepAlive: false))
        phase = .lingering(until: now + 1000)
        input = []
        start = 0
        flush()
    }

    // MARK: Bytes

    private func flush() {
        guard !isClosed else { return }
        do {
            try output.flush(to: socket)
        } catch {
            return close()
        }
        guard output.isEmpty else { return }
        switch phase {
        case .closingAfterFlush: close()
        case .lingering: socket.shutdownWrite()
        default: break
        }
    }

    private func compactInput() {
        if start == input.count {
            input.removeAll(keepingCapacity: input.capacity <= 262_144)
            start = 0
        } else if start > 65_536 {
            input.removeFirst(start)
            start = 0
        }
    }
}

/// Milliseconds on a clock that never jumps.
func monotonicMilliseconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) * 1000 + Double(now.tv_nsec) / 1_000_000
}

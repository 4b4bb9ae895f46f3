#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One client connection, served on its own thread: reads requests in order and writes each answer whole.
final class Connection {
    private let socket: Socket
    private let server: StubServer
    private let parser: HTTPRequestParser
    private var buffer: [UInt8] = []
    /// Where the unconsumed bytes of `buffer` start.
    private var start = 0
    private var scratch: UnsafeMutableRawBufferPointer
    private var date = HTTPDate()
    private var receiveTimeout = -1

    init(socket: Socket, server: StubServer) {
        self.socket = socket
        self.server = server
        parser = HTTPRequestParser(
            maxHeaderBytes: server.configuration.maxHeaderBytes, maxBodyBytes: server.configuration.maxBodyBytes)
        scratch = .allocate(byteCount: 65_536, alignment: 16)
    }

    deinit {
        scratch.deallocate()
    }

    /// Serves requests until the client closes, a timeout passes, an error ends the connection, or the server stops.
    func run() {
        do {
            while try serveOne() {}
        } catch let error as HTTPError {
            write(HTTPResponse.error(error), keepAlive: false, includeBody: true)
            lingeringClose()
        } catch {
            // The peer went away or timed out between requests: nothing to answer.
        }
    }

    /// Closes our side after an error answer, then drains what the client still sends, so that closing
    /// with unread input does not reset the connection before the client has read the answer.
    private func lingeringClose() {
        socket.shutdownWrite()
        socket.setReceiveTimeout(milliseconds: 1000)
        var drained = 0
        while drained < 4 << 20, let count = try? socket.read(into: scratch), count > 0 {
            drained += count
        }
    }

    /// Reads one request and answers it.
    /// - Returns: whether the connection stays open for another request.
    private func serveOne() throws -> Bool {
        guard let headEnd = try readHead() else { return false }
        let head = try parser.parseHead(buffer[start..<headEnd])
        start = headEnd
        let body = try readBody(head)
        let request = try HTTPRequest(
            method: head.method, target: head.target, minorVersion: head.minorVersion, headers: head.headers, body: body)
        compactBuffer()
        let began = monotonicMilliseconds()
        let reply = server.reply(to: request)
        let keepAlive = request.keepAlive && reply.fault == nil
        if reply.delayMs > 0, server.wake.wait(milliseconds: Int32(reply.delayMs)) == .fired { return false }
        let sent = perform(reply, keepAlive: keepAlive, isHead: request.method == "HEAD")
        server.configuration.log?(
            StubServer.RequestLog(
                method: request.method, target: request.target, stub: reply.stub, variant: reply.variant,
                status: reply.fault == nil ? reply.response.status.code : nil, fault: reply.fault?.rawValue,
                milliseconds: monotonicMilliseconds() - began))
        return sent && keepAlive
    }

    /// Reads until a whole head is buffered. Returns its end, or nil when the client closed between requests.
    private func readHead() throws -> Int? {
        let headerDeadline = monotonicMilliseconds() + Double(server.configuration.headerTimeout.milliseconds)
        var searched = start
        while true {
            if let end = parser.headEnd(in: buffer, from: max(start, searched - 3)) {
                guard end - start <= parser.maxHeaderBytes else { throw tooLargeHead() }
                return end
            }
            searched = buffer.count
            guard buffer.count - start <= parser.maxHeaderBytes else { throw tooLargeHead() }
            let waiting = buffer.count == start
            let timeout =
                waiting
                ? server.configuration.idleTimeout.milliseconds
                : max(1, Int(headerDeadline - monotonicMilliseconds()))
            do {
                guard try receive(timeout: timeout) else {
                    if waiting { return nil }
                    throw HTTPError(.badRequest, "connection closed in the middle of a request head")
                }
            } catch let error as SocketError where error.code == EAGAIN || error.code == EWOULDBLOCK {
                if waiting { return nil }
                throw HTTPError(.requestTimeout, "request head not complete within \(server.configuration.headerTimeout)")
            }
        }
    }

    private func tooLargeHead() -> HTTPError {
        HTTPError(.headerFieldsTooLarge, "request line and headers exceed \(parser.maxHeaderBytes) bytes")
    }

    private func readBody(_ head: HTTPRequestHead) throws -> [UInt8] {
        switch head.framing {
        case .none:
            return []
        case .length(let length):
            if head.expectsContinue && buffer.count - start < length { try sendContinue() }
            while buffer.count - start < length {
                guard try receive(timeout: server.configuration.idleTimeout.milliseconds) else {
                    throw HTTPError(.badRequest, "connection closed before the \(length)-byte body arrived")
                }
            }
            defer { start += length }
            return Array(buffer[start..<(start + length)])
        case .chunked:
            if head.expectsContinue && buffer.count == start { try sendContinue() }
            while true {
                if let (body, end) = try ChunkedBody.decode(buffer, from: start, limit: parser.maxBodyBytes) {
                    start = end
                    return body
                }
                guard try receive(timeout: server.configuration.idleTimeout.milliseconds) else {
                    throw HTTPError(.badRequest, "connection closed before the chunked body ended")
                }
            }
        }
    }

    private func sendContinue() throws {
        try socket.write(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
    }

    /// Reads once, appending to the buffer. Returns false at end of stream.
    private func receive(timeout: Int) throws -> Bool {
        if timeout != receiveTimeout {
            socket.setReceiveTimeout(milliseconds: timeout)
            receiveTimeout = timeout
        }
        let count = try socket.read(into: scratch)
        guard count > 0 else { return false }
        buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[0..<count]))
        return true
    }

    private func compactBuffer() {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 262_144)
            start = 0
        } else if start > 65_536 {
            buffer.removeFirst(start)
            start = 0
        }
    }

    // MARK: Answering

    /// Writes the reply or carries out its fault. Returns false when the connection must close.
    private func perform(_ reply: StubServer.Reply, keepAlive: Bool, isHead: Bool) -> Bool {
        switch reply.fault {
        case nil:
            return write(reply.response, keepAlive: keepAlive, includeBody: !isHead)
        case .drop:
            return false
        case .reset:
            socket.setResetOnClose()
            return false
        case .truncate:
            let bytes = reply.response.serialized(date: date.now(), keepAlive: false)
            let withheld = max(1, reply.response.body.count - reply.response.body.count / 2)
            try? socket.write(Array(bytes.prefix(bytes.count - withheld)))
            return false
        case .malformed:
            try? socket.write(Array("HTTP/1.1 2x0 NOT-HTTP\r\nContent-Length: banana\r\n\r\n{\"res".utf8))
            return false
        case .hang:
            socket.setReceiveTimeout(milliseconds: 0)
            // Hold the connection, discarding input, until the client closes it or the server stops.
            while server.wake.wait(milliseconds: -1, or: socket) == .readable {
                guard let count = try? socket.read(into: scratch), count > 0 else { break }
            }
            return false
        }
    }

    @discardableResult
    private func write(_ response: HTTPResponse, keepAlive: Bool, includeBody: Bool) -> Bool {
        let bytes = response.serialized(date: date.now(), keepAlive: keepAlive, includeBody: includeBody)
        do {
            try socket.write(bytes)
            return true
        } catch {
            return false
        }
    }
}

/// Milliseconds on a clock that never jumps.
func monotonicMilliseconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) * 1000 + Double(now.tv_nsec) / 1_000_000
}

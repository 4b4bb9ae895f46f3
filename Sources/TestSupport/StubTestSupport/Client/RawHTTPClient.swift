import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A loopback client that sends raw bytes and reads raw answers, for testing the server's HTTP handling.
///
/// Every call is `async` on a non-blocking socket: a wait for the server parks the task on `SocketPoller`'s thread
/// instead of holding a thread of the cooperative pool or the main actor. Each wait (connect, a read, a write that
/// finds the socket full) gives up after `timeout` seconds, and cancelling the task ends it. The default, a minute,
/// only ends a hang: on a busy machine the peer's bytes may come seconds late. A test about a silence (a server that
/// must not answer, a read that must time out) passes a short `timeout` and says which window it tests.
package actor RawHTTPClient {
    private var fd: Int32
    private var buffer: [UInt8] = []
    /// How the stream ended once a read saw it end (0: closed by the server, else a read's `errno`).
    private var end: Int32?
    /// When the last bytes read arrived (monotonic seconds).
    private var lastArrival = 0.0
    private let timeout: Duration

    /// Connects to `127.0.0.1:port`; the connect and every read and write give up after `timeout` seconds.
    /// - Throws: `ClientError.connectFailed` with the `errno` (`ETIMEDOUT` when the connect outlived `timeout`).
    package init(port: Int, timeout: Int = 60) async throws {
        self.timeout = .seconds(timeout)
        fd = socket(AF_INET, Int32(streamType), 0)
        // Not lent to processes a test starts: a child that counts its sockets (InProcessProbe) must not see ours.
        _ = fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        #if canImport(Darwin)
            // A send to a connection the server reset gives EPIPE, not a SIGPIPE that ends the whole test run:
            // `#define SO_NOSIGPIPE 0x1022` (xnu bsd/sys/socket.h:174), as the server's sockets have.
            var one: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        var code = result == 0 ? 0 : errno
        // On loopback the handshake is usually done by the time connect returns: a look that does not wait
        // (poll with timeout 0) saves the task a turn through the pool before its first send.
        var done = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        if code == EINPROGRESS && poll(&done, 1, 0) == 1 { code = Self.connectError(fd) }
        if code == EINPROGRESS || code == EINTR {
            // Under way: the socket turns writable once the connect succeeded or failed; SO_ERROR says which.
            do {
                switch try await SocketPoller.shared.waitWritable(fd, timeout: self.timeout) {
                case .timedOut: code = ETIMEDOUT
                case .ready: code = Self.connectError(fd)
                }
            } catch {
                close(fd)
                fd = -1
                throw error
            }
        }
        guard code == 0 else {
            // deinit runs for an instance whose init throws once it is fully initialized: forget the descriptor,
            // or deinit closes its number again, by then perhaps another test's listener.
            close(fd)
            fd = -1
            throw ClientError.connectFailed(code)
        }
    }

    /// Takes over a connected socket (a test's own server side of a connection), making it non-blocking; the
    /// client closes it.
    package init(adopting descriptor: Int32, timeout: Int = 60) {
        self.timeout = .seconds(timeout)
        fd = descriptor
        _ = fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        if fd >= 0 { close(fd) }
    }

    /// How a connect that was under way ended: 0, or its `errno` (`SO_ERROR`).
    private static func connectError(_ fd: Int32) -> Int32 {
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        return getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length) == 0 ? code : errno
    }

    package enum ClientError: Error, Equatable {
        case connectFailed(Int32)
        case closedEarly(received: String)
        case malformed(String)
        /// A failed read, with its `errno`, such as `ECONNRESET`, or `EAGAIN` when nothing came within the timeout.
        case readFailed(Int32)
    }

    /// Closes the connection the ordinary way (the peer reads its end); the client is unusable afterwards.
    package func hangUp() {
        close(fd)
        fd = -1
    }

    /// Aborts the connection with a TCP reset (linger 0); the client is unusable afterwards.
    package func reset() {
        var value = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &value, socklen_t(MemoryLayout<linger>.size))
        close(fd)
        fd = -1
    }

    package func send(_ text: String) async throws {
        try await send(Array(text.utf8))
    }

    /// Sends every byte, waiting (at most `timeout` each time) while the socket's send buffer is full.
    /// - Throws: `ClientError.closedEarly` naming the `errno` when the connection fails or the wait runs out.
    package func send(_ bytes: [UInt8]) async throws {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { sendNoSignal(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                offset += count
                continue
            }
            let code = errno
            if count < 0 && code == EINTR { continue }
            if count < 0 && (code == EAGAIN || code == EWOULDBLOCK),
                try await SocketPoller.shared.waitWritable(fd, timeout: timeout) == .ready
            {
                continue
            }
            throw ClientError.closedEarly(received: "send failed: errno \(code)")
        }
    }

    /// Reads one response: head, then a body by `Content-Length` (none for 1xx, 204, 304 or `head: true`).
    package func readResponse(head: Bool = false) async throws -> RawResponse {
        while true {
            if let end = headEnd() {
                let text = String(decoding: buffer[..<end], as: UTF8.self)
                var response = try RawResponse(head: text)
                buffer.removeFirst(end)
                let length =
                    head || response.status < 200 || response.status == 204
                    ? 0 : Int(response.header("Content-Length") ?? "0") ?? 0
                while buffer.count < length {
                    guard try await fill() != nil else {
                        throw ClientError.closedEarly(received: "\(buffer.count) of \(length) body bytes")
                    }
                }
                response.body = Array(buffer[..<length])
                response.arrived = lastArrival
                buffer.removeFirst(length)
                return response
            }
            guard try await fill() != nil else {
                throw ClientError.closedEarly(received: String(decoding: buffer, as: UTF8.self))
            }
        }
    }

    /// Reads `count` responses in a row (pipelined answers).
    package func readResponses(_ count: Int) async throws -> [RawResponse] {
        var responses: [RawResponse] = []
        for _ in 0..<count { responses.append(try await readResponse()) }
        return responses
    }

    /// Reads exactly `count` bytes.
    /// - Throws: `ClientError.closedEarly` when the server closes first, `readFailed` on a timeout or reset.
    package func readExactly(_ count: Int) async throws -> [UInt8] {
        while buffer.count < count {
            guard try await fill() != nil else {
                throw ClientError.closedEarly(received: "\(buffer.count) of \(count) bytes")
            }
        }
        defer { buffer.removeFirst(count) }
        return Array(buffer[..<count])
    }

    /// Whatever has come and is not consumed yet, after at most one wait; nil once the server closed and nothing is
    /// left.
    /// - Throws: `ClientError.readFailed` on a timeout or a reset.
    package func readAvailable() async throws -> [UInt8]? {
        if buffer.isEmpty, try await fill() == nil { return nil }
        defer { buffer = [] }
        return buffer
    }

    /// Reads until the server closes; returns everything not yet consumed. A reset or a timeout also ends it.
    package func readToEnd() async -> [UInt8] {
        while (try? await fill()) != nil {}
        defer { buffer = [] }
        return buffer
    }

    /// Reads until the server closes its side; returns everything not yet consumed.
    /// - Throws: `ClientError.readFailed` when the read timeout passes first (`EAGAIN`) or the connection resets.
    package func readUntilClosed() async throws -> [UInt8] {
        while try await fill() != nil {}
        defer { buffer = [] }
        return buffer
    }

    /// One read off the socket: how many bytes came, and when (monotonic seconds).
    package struct Arrival: Sendable {
        package var bytes: [UInt8]
        package var time: Double
    }

    /// Reads until the server closes (or resets), noting when each read's bytes arrived: for asserting how an
    /// answer's bytes were spread over time. The poller's thread reads them as they come, so the times hold however
    /// late this task runs.
    package func readArrivals() async -> [Arrival] {
        var arrivals: [Arrival] = []
        if !buffer.isEmpty {
            arrivals.append(Arrival(bytes: buffer, time: Self.now()))
            buffer = []
        }
        guard end == nil,
            let received = try? await SocketPoller.shared.receive(fd, untilClosed: true, timeout: timeout)
        else { return arrivals }
        end = received.end ?? EAGAIN
        return arrivals + received.arrivals.map { Arrival(bytes: $0.bytes, time: $0.time) }
    }

    /// Monotonic seconds, for comparing with `Arrival.time`.
    package nonisolated static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// Whether the server ended the connection with a TCP reset.
    package func readEndsWithReset() async -> Bool {
        while true {
            do {
                guard try await fill() != nil else { return false }
            } catch ClientError.readFailed(ECONNRESET) {
                return true
            } catch {
                return false
            }
        }
    }

    /// One read: appends what came and returns when it arrived (monotonic seconds), or nil once the server closed.
    /// - Throws: `readFailed(EAGAIN)` when nothing came within `timeout`, `readFailed(errno)` when the read failed,
    ///   `CancellationError` when the task is cancelled.
    private func fill() async throws -> Double? {
        if let end {
            if end == 0 { return nil }
            throw ClientError.readFailed(end)
        }
        var received = SocketPoller.Received()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        SocketPoller.drain(fd, into: &received, chunk: &chunk)
        if received.arrivals.isEmpty && received.end == nil {
            received = try await SocketPoller.shared.receive(fd, untilClosed: false, timeout: timeout)
        }
        end = received.end
        for arrival in received.arrivals { buffer += arrival.bytes }
        if let last = received.arrivals.last {
            lastArrival = last.time
            return last.time
        }
        if received.timedOut { throw ClientError.readFailed(EAGAIN) }
        return try await fill()
    }

    private func headEnd() -> Int? {
        let marker: [UInt8] = [13, 10, 13, 10]
        guard buffer.count >= 4 else { return nil }
        for index in 0...(buffer.count - 4) where buffer[index..<(index + 4)].elementsEqual(marker) {
            return index + 4
        }
        return nil
    }
}

/// A response as read off the wire.
package struct RawResponse: Sendable {
    package var statusLine: String
    package var status: Int
    package var headers: [(name: String, value: String)]
    package var body: [UInt8] = []
    /// When its last byte arrived (monotonic seconds, `RawHTTPClient.now()`), seen by the thread that read it: the
    /// time holds however late the reading task ran.
    package var arrived = 0.0

    package init(head: String) throws {
        let lines = head.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        guard let first = lines.first, first.hasPrefix("HTTP/1.1 "), let status = Int(first.dropFirst(9).prefix(3))
        else {
            throw RawHTTPClient.ClientError.malformed(head)
        }
        statusLine = first
        self.status = status
        headers = lines.dropFirst().map { line in
            let parts = line.split(separator: ":", maxSplits: 1)
            return (String(parts[0]), parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : "")
        }
    }

    package func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    package var text: String { String(decoding: body, as: UTF8.self) }

    /// The body decoded as a JSON object.
    package func json() throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] ?? [:]
    }
}

#if canImport(Glibc)
    private let streamType = SOCK_STREAM.rawValue
    private func sendNoSignal(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
        Glibc.send(fd, bytes, count, Int32(MSG_NOSIGNAL))
    }
#elseif canImport(Darwin)
    private let streamType = SOCK_STREAM
    /// The socket has `SO_NOSIGPIPE` (set in `init`), Darwin's stand-in for Linux's per-call `MSG_NOSIGNAL`.
    private func sendNoSignal(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
        Darwin.send(fd, bytes, count, 0)
    }
#endif

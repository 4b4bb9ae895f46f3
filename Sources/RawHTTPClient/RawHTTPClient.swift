import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A blocking loopback client that sends raw bytes and reads raw answers, for testing the server's HTTP handling.
public final class RawHTTPClient {
    private var fd: Int32
    private var buffer: [UInt8] = []

    /// Connects to `127.0.0.1:port`; the connect and every read and write give up after `timeout` seconds.
    public init(port: Int, timeout: Int = 5) throws {
        fd = socket(AF_INET, Int32(streamType), 0)
        // Not lent to processes a test starts: a child that counts its sockets (InProcessProbe) must not see ours.
        _ = fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC)
        #if canImport(Darwin)
            // A send to a connection the server reset gives EPIPE, not a SIGPIPE that ends the whole test run:
            // `#define SO_NOSIGPIPE 0x1022` (xnu bsd/sys/socket.h:174), as the server's sockets have.
            var one: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var value = timeval(tv_sec: timeout, tv_usec: 0)
        // On Linux the send timeout also bounds connect.
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var result: Int32
        // After a signal interrupts it, the connect goes on: calling again reports it under way, then done.
        repeat {
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            if result != 0 && errno == EISCONN { result = 0 }
        } while result != 0 && (errno == EINTR || errno == EALREADY)
        guard result == 0 else {
            // deinit runs for an instance whose init throws once it is fully initialized: forget the descriptor,
            // or deinit closes its number again, by then perhaps another test's listener.
            let code = errno
            close(fd)
            fd = -1
            throw ClientError.connectFailed(code)
        }
    }

    deinit {
        if fd >= 0 { close(fd) }
    }

    public enum ClientError: Error, Equatable {
        case connectFailed(Int32)
        case closedEarly(received: String)
        case malformed(String)
        /// A failed read, with its `errno`, such as `ECONNRESET` or `EAGAIN` after the read timeout.
        case readFailed(Int32)
    }

    /// Aborts the connection with a TCP reset (linger 0); the client is unusable afterwards.
    public func reset() {
        var value = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &value, socklen_t(MemoryLayout<linger>.size))
        close(fd)
        fd = -1
    }

    public func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { sendNoSignal(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw ClientError.closedEarly(received: "send failed: errno \(errno)") }
            offset += count
        }
    }

    /// Reads one response: head, then a body by `Content-Length` (none for 1xx, 204, 304 or `head: true`).
    public func readResponse(head: Bool = false) throws -> RawResponse {
        while true {
            if let end = headEnd() {
                let text = String(decoding: buffer[..<end], as: UTF8.self)
                var response = try RawResponse(head: text)
                buffer.removeFirst(end)
                let length =
                    head || response.status < 200 || response.status == 204
                    ? 0 : Int(response.header("Content-Length") ?? "0") ?? 0
                while buffer.count < length {
                    guard try fill() else {
                        throw ClientError.closedEarly(received: "\(buffer.count) of \(length) body bytes")
                    }
                }
                response.body = Array(buffer[..<length])
                buffer.removeFirst(length)
                return response
            }
            guard try fill() else {
                throw ClientError.closedEarly(received: String(decoding: buffer, as: UTF8.self))
            }
        }
    }

    /// Reads exactly `count` bytes.
    /// - Throws: `ClientError.closedEarly` when the server closes first, `readFailed` on a timeout or reset.
    public func readExactly(_ count: Int) throws -> [UInt8] {
        while buffer.count < count {
            guard try fill() else {
                throw ClientError.closedEarly(received: "\(buffer.count) of \(count) bytes")
            }
        }
        defer { buffer.removeFirst(count) }
        return Array(buffer[..<count])
    }

    /// Reads until the server closes; returns everything not yet consumed. A reset also ends the stream.
    public func readToEnd() -> [UInt8] {
        while (try? fill()) == true {}
        defer { buffer = [] }
        return buffer
    }

    /// Reads until the server closes its side; returns everything not yet consumed.
    /// - Throws: `ClientError.readFailed` when the read timeout passes first (`EAGAIN`) or the connection resets.
    public func readUntilClosed() throws -> [UInt8] {
        while try fill() {}
        defer { buffer = [] }
        return buffer
    }

    /// One read off the socket: how many bytes came, and when (monotonic seconds).
    public struct Arrival: Sendable {
        public var bytes: [UInt8]
        public var time: Double
    }

    /// Reads until the server closes (or resets), noting when each read returned: for asserting how an answer's
    /// bytes were spread over time.
    public func readArrivals() -> [Arrival] {
        var arrivals: [Arrival] = []
        if !buffer.isEmpty {
            arrivals.append(Arrival(bytes: buffer, time: Self.now()))
            buffer = []
        }
        while (try? fill()) == true {
            arrivals.append(Arrival(bytes: buffer, time: Self.now()))
            buffer = []
        }
        return arrivals
    }

    /// Monotonic seconds, for comparing with `Arrival.time`.
    public static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// Whether the server ended the connection with a TCP reset.
    public func readEndsWithReset() -> Bool {
        while true {
            do {
                guard try fill() else { return false }
            } catch ClientError.readFailed(ECONNRESET) {
                return true
            } catch {
                return false
            }
        }
    }

    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var count: Int
        // A signal (SIGCHLD, when a test's child process exits) interrupts a blocking read: read again.
        repeat {
            count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        } while count < 0 && errno == EINTR
        if count < 0 {
            throw ClientError.readFailed(errno)
        }
        buffer += chunk[..<count]
        return count > 0
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
public struct RawResponse: Sendable {
    public var statusLine: String
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8] = []

    public init(head: String) throws {
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

    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The body decoded as a JSON object.
    public func json() throws -> [String: Any] {
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

/// Runs blocking socket work on a thread of its own and awaits its result.
///
/// A blocking read on a task's thread holds one of the few threads of Swift's cooperative pool (two on a
/// 2-CPU machine) for as long as the server takes to answer; a slow or paced answer would then stall every
/// other test's tasks, and their bounded waits would time out.
public func blocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}

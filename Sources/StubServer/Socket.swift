#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A blocking stream socket: a thin wrapper over a POSIX file descriptor.
struct Socket: Sendable, Hashable {
    let fd: Int32

    /// Opens a listening TCP socket on `host:port`; port 0 picks an ephemeral port.
    static func listen(host: String, port: UInt16, backlog: Int32 = 1024) throws -> Socket {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Socket.streamType
        hints.ai_flags = AI_PASSIVE
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            let reason = String(cString: gai_strerror(status))
            throw SocketError("getaddrinfo", code: status, detail: "\(host): \(reason)")
        }
        defer { freeaddrinfo(list) }
        let fd = socket(first.pointee.ai_family, Socket.streamType, 0)
        guard fd >= 0 else { throw SocketError("socket") }
        let listener = Socket(fd: fd)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        listener.disableSigPipe()
        guard bind(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
            let error = SocketError("bind", detail: "\(host):\(port)")
            listener.close()
            throw error
        }
        guard posixListen(fd, backlog) == 0 else {
            let error = SocketError("listen")
            listener.close()
            throw error
        }
        return listener
    }

    /// The port this socket is bound to.
    func localPort() throws -> UInt16 {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard result == 0 else { throw SocketError("getsockname") }
        let family = storage.ss_family
        return withUnsafePointer(to: &storage) { pointer in
            if family == sa_family_t(AF_INET6) {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
        }
    }

    /// Accepts one connection; nil when interrupted or when the listener was shut down.
    func accept() -> Socket? {
        let client = posixAccept(fd, nil, nil)
        guard client >= 0 else { return nil }
        let socket = Socket(fd: client)
        socket.disableSigPipe()
        var one: Int32 = 1
        setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        return socket
    }

    /// Reads what is available into `scratch`; returns the byte count, 0 at end of stream.
    /// - Throws: `SocketError` on failure, including a receive timeout (`EAGAIN`).
    func read(into scratch: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            let count = recv(fd, scratch.baseAddress, scratch.count, 0)
            if count >= 0 { return count }
            if errno != EINTR { throw SocketError("recv") }
        }
    }

    /// Writes every byte, retrying partial writes.
    func write(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let count = send(fd, bytes.baseAddress! + offset, bytes.count - offset, Socket.sendFlags)
            if count < 0 {
                if errno == EINTR { continue }
                throw SocketError("send")
            }
            offset += count
        }
    }

    /// Writes every byte of `bytes`.
    func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    /// Makes reads fail with `EAGAIN` after `milliseconds` without data; 0 waits forever.
    func setReceiveTimeout(milliseconds: Int) {
        var value = timeval()
        value.tv_sec = .init(milliseconds / 1000)
        value.tv_usec = .init((milliseconds % 1000) * 1000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Makes the next `close` send a TCP reset instead of a normal close.
    func setResetOnClose() {
        var value = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &value, socklen_t(MemoryLayout<linger>.size))
    }

    /// Waits until the peer sends data or hangs up, or until `milliseconds` pass (-1 waits forever).
    /// - Returns: true when the socket became readable.
    func waitReadable(milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while true {
            let result = poll(&entry, 1, milliseconds)
            if result < 0 && errno == EINTR { continue }
            return result > 0
        }
    }

    /// Stops reads and writes in both directions, waking any thread blocked on this socket.
    func shutdown() {
        _ = posixShutdown(fd, Int32(SHUT_RDWR))
    }

    /// Stops writes only: the peer reads end of stream after what was sent.
    func shutdownWrite() {
        _ = posixShutdown(fd, Int32(SHUT_WR))
    }

    func close() {
        _ = posixClose(fd)
    }
}

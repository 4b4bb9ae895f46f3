#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A non-blocking stream socket: a thin wrapper over a POSIX file descriptor.
struct Socket: Sendable, Hashable {
    let fd: Int32

    /// The 4 or 16 bytes of a numeric IPv4 or IPv6 address (`inet_pton`), or nil when `host` is not one.
    static func addressBytes(_ host: String) -> [UInt8]? {
        let family = host.contains(":") ? AF_INET6 : AF_INET
        var bytes = [UInt8](repeating: 0, count: family == AF_INET6 ? 16 : 4)
        return inet_pton(family, host, &bytes) == 1 ? bytes : nil
    }

    /// Opens a listening TCP socket on `host:port`; port 0 picks an ephemeral port.
    static func listen(host: String, port: UInt16, backlog: Int32 = 1024) throws(SocketError) -> Socket {
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
        listener.setNonBlocking()
        listener.setCloseOnExec()
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
    func localPort() throws(SocketError) -> UInt16 {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard result == 0 else { throw SocketError("getsockname") }
        let family = storage.ss_family
        return withUnsafePointer(to: &storage) { pointer in
            if family == sa_family_t(AF_INET6) {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    UInt16(bigEndian: $0.pointee.sin6_port)
                }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                UInt16(bigEndian: $0.pointee.sin_port)
            }
        }
    }

    /// What one `accept` gave.
    enum Accepted: Equatable {
        /// A new connection, non-blocking with `TCP_NODELAY`.
        case connection(Socket)
        /// Nothing pending (or the one pending was aborted by its client).
        case none
        /// The process or the system has no descriptor (or buffer) to spare: `errno` `EMFILE`, `ENFILE`, `ENOBUFS`
        /// or `ENOMEM`. The connection stays pending, so the listener stays readable: a loop that accepts again
        /// at once spins until a descriptor frees.
        case outOfDescriptors(errno: Int32)
    }

    /// Accepts one pending connection.
    func accept() -> Accepted {
        while true {
            let client = posixAccept(fd, nil, nil)
            if client >= 0 {
                let socket = Socket(fd: client)
                socket.disableSigPipe()
                socket.setNonBlocking()
                socket.setCloseOnExec()
                var one: Int32 = 1
                setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                return .connection(socket)
            }
            let code = errno
            switch code {
            case EINTR, ECONNABORTED: continue
            case EMFILE, ENFILE, ENOBUFS, ENOMEM: return .outOfDescriptors(errno: code)
            default: return .none
            }
        }
    }

    func setNonBlocking() {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    /// Not inherited by programs the process starts (`FD_CLOEXEC`): a test process that runs a child while its
    /// servers serve must not lend the child their sockets, which would keep a closed connection open (the
    /// client sees no end) and a stopped server's port listening.
    func setCloseOnExec() {
        _ = fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC)
    }

    /// Reads what is available into `scratch`.
    /// - Returns: the byte count, 0 at end of stream, nil when nothing is available yet.
    /// - Throws: `SocketError` when the connection failed.
    func read(into scratch: UnsafeMutableRawBufferPointer) throws -> Int? {
        while true {
            let count = recv(fd, scratch.baseAddress, scratch.count, 0)
            if count >= 0 { return count }
            if errno == EAGAIN || errno == EWOULDBLOCK { return nil }
            if errno != EINTR { throw SocketError("recv") }
        }
    }

    /// Writes what the socket takes now from the buffers, in order, with one system call.
    /// - Returns: the number of bytes written, 0 when the socket cannot take more yet.
    /// - Throws: `SocketError` when the connection failed.
    /// - Parameter more: more follows at once (Linux: `MSG_MORE`), so a short head waits to share a segment.
    func send(_ vectors: [iovec], more: Bool = false) throws -> Int {
        while true {
            let count = vectors.withUnsafeBufferPointer {
                posixSendVectors(fd, $0.baseAddress, Int32($0.count), more: more)
            }
            if count >= 0 { return count }
            if errno == EAGAIN || errno == EWOULDBLOCK { return 0 }
            if errno != EINTR { throw SocketError("sendmsg") }
        }
    }

    /// Writes what the socket takes now of `file` from `offset`, by `sendfile` where the platform has it and the
    /// file allows it, else from its bytes.
    /// - Returns: the number of bytes written, 0 when the socket cannot take more yet.
    /// - Throws: `SocketError` when the connection failed.
    func send(_ file: FileBody, from offset: Int) throws -> Int {
        while true {
            let count = posixSendFile(fd, file.fd, offset, file.bytes.count - offset)
            if count >= 0 { return count }
            if errno == EAGAIN || errno == EWOULDBLOCK { return 0 }
            if errno == EINTR { continue }
            // Any other failure: the bytes themselves. A broken connection then fails in `sendmsg` as always;
            // a file `sendfile` cannot read (EINVAL, ESPIPE, ENOSYS off Linux) still gets its answer out.
            return try file.bytes.withUnsafeBytes { raw in
                try send([
                    iovec(
                        iov_base: UnsafeMutableRawPointer(mutating: raw.baseAddress! + offset),
                        iov_len: raw.count - offset)
                ])
            }
        }
    }

    /// Makes the next `close` send a TCP reset instead of a normal close.
    func setResetOnClose() {
        var value = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &value, socklen_t(MemoryLayout<linger>.size))
    }

    /// Stops writes only: the peer reads end of stream after what was sent.
    func shutdownWrite() {
        _ = posixShutdown(fd, Int32(SHUT_WR))
    }

    func close() {
        _ = posixClose(fd)
    }
}

#if canImport(Glibc)
    import Glibc

    extension Socket {
        static let streamType = Int32(SOCK_STREAM.rawValue)
        /// `MSG_NOSIGNAL`: a peer that hung up yields `EPIPE`, not a `SIGPIPE` that kills the process.
        static let sendFlags = Int32(MSG_NOSIGNAL)

        /// Linux has no `SO_NOSIGPIPE`: `sendFlags` does the job.
        func disableSigPipe() {}
    }

    func posixListen(_ fd: Int32, _ backlog: Int32) -> Int32 { Glibc.listen(fd, backlog) }
    func posixAccept(
        _ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>?, _ length: UnsafeMutablePointer<socklen_t>?
    ) -> Int32 {
        Glibc.accept(fd, address, length)
    }
    func posixShutdown(_ fd: Int32, _ how: Int32) -> Int32 { Glibc.shutdown(fd, how) }
    /// `sendmsg` rather than `writev`, for `MSG_NOSIGNAL`.
    func posixWritev(_ fd: Int32, _ vectors: UnsafePointer<iovec>?, _ count: Int32) -> Int {
        var message = msghdr()
        message.msg_iov = UnsafeMutablePointer(mutating: vectors)
        message.msg_iovlen = Int(count)
        return Glibc.sendmsg(fd, &message, Socket.sendFlags)
    }
    func posixClose(_ fd: Int32) -> Int32 { Glibc.close(fd) }
#elseif canImport(Darwin)
    import Darwin

    extension Socket {
        static let streamType = SOCK_STREAM
        static let sendFlags: Int32 = 0

        /// `SO_NOSIGPIPE`: a peer that hung up yields `EPIPE`, not a `SIGPIPE` that kills the process.
        func disableSigPipe() {
            var one: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        }
    }

    func posixListen(_ fd: Int32, _ backlog: Int32) -> Int32 { Darwin.listen(fd, backlog) }
    func posixAccept(
        _ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>?, _ length: UnsafeMutablePointer<socklen_t>?
    ) -> Int32 {
        Darwin.accept(fd, address, length)
    }
    func posixShutdown(_ fd: Int32, _ how: Int32) -> Int32 { Darwin.shutdown(fd, how) }
    func posixWritev(_ fd: Int32, _ vectors: UnsafePointer<iovec>?, _ count: Int32) -> Int {
        Darwin.writev(fd, vectors, count)
    }
    func posixClose(_ fd: Int32) -> Int32 { Darwin.close(fd) }
#endif

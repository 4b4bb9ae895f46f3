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
    /// Writes the buffers in order with one `sendmsg`, which takes `MSG_NOSIGNAL` where `writev` cannot.
    func posixSendVectors(_ fd: Int32, _ vectors: UnsafePointer<iovec>?, _ count: Int32, more: Bool) -> Int {
        var message = msghdr()
        message.msg_iov = UnsafeMutablePointer(mutating: vectors)
        message.msg_iovlen = Int(count)
        return Glibc.sendmsg(fd, &message, Socket.sendFlags | (more ? Int32(MSG_MORE) : 0))
    }
    /// Sends `count` bytes of the file `file` from `offset` to the socket without copying them through the process.
    func posixSendFile(_ socket: Int32, _ file: Int32, _ offset: Int, _ count: Int) -> Int {
        var position = off_t(offset)
        return Glibc.sendfile(socket, file, &position, count)
    }
    func posixClose(_ fd: Int32) -> Int32 { Glibc.close(fd) }
    func posixRead(_ fd: Int32, _ bytes: UnsafeMutableRawPointer?, _ count: Int) -> Int { Glibc.read(fd, bytes, count) }
    func posixWrite(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int { Glibc.write(fd, bytes, count) }
#endif

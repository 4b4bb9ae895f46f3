// Checked against xnu bsd/sys/socket.h: :113 `#define SOCK_STREAM 1` (an Int32; Glibc's is an enum), :174
// `#define SO_NOSIGPIPE 0x1022`, :380 `#define SOL_SOCKET 0xffff`, :785 accept, :794 listen, :803 setsockopt,
// :804 shutdown (each returns `int`); bsd/sys/uio.h:271 `ssize_t writev(int, const struct iovec *, int)`;
// bsd/sys/errno.h:211 `#define ENOSYS 78`, :81-82 `errno` is `(*__error())`, which Swift's Darwin overlay makes a
// settable `var errno: Int32`; Libc include/unistd.h:456 close, :507 read, :556 write (`ssize_t`: Int).
// Darwin's sendfile (socket.h:810) takes other arguments; it is not used here.
#if canImport(Darwin)
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
    /// Writes the buffers in order with one `writev`; `SO_NOSIGPIPE` on the socket stands in for `MSG_NOSIGNAL`.
    func posixSendVectors(_ fd: Int32, _ vectors: UnsafePointer<iovec>?, _ count: Int32, more: Bool) -> Int {
        Darwin.writev(fd, vectors, count)
    }
    /// No `FileBody` is made here (it needs memfd): says so, and the caller sends the bytes.
    func posixSendFile(_ socket: Int32, _ file: Int32, _ offset: Int, _ count: Int) -> Int {
        errno = ENOSYS
        return -1
    }
    func posixClose(_ fd: Int32) -> Int32 { Darwin.close(fd) }
    func posixRead(_ fd: Int32, _ bytes: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        Darwin.read(fd, bytes, count)
    }
    func posixWrite(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int { Darwin.write(fd, bytes, count) }
#endif

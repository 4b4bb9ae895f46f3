#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Wakes the event loop from another thread: a pipe whose read end the loop polls.
struct Waker: Sendable {
    /// The end to poll for readability.
    let fd: Int32
    private let writeEnd: Int32

    init() throws(SocketError) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw SocketError("pipe") }
        fd = ends[0]
        writeEnd = ends[1]
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, fcntl(end, F_GETFD) | FD_CLOEXEC)  // not lent to child processes
        }
    }

    /// Makes the read end readable until the next `drain`. Safe from any thread; a full pipe is already awake.
    func wake() {
        var byte: UInt8 = 1
        _ = posixWrite(writeEnd, &byte, 1)
    }

    /// Empties the pipe, so that the next poll waits again.
    func drain() {
        var bytes = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        while withUnsafeMutableBytes(of: &bytes, { posixRead(fd, $0.baseAddress, $0.count) }) > 0 {}
    }

    func close() {
        _ = posixClose(fd)
        _ = posixClose(writeEnd)
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A one-shot signal that wakes threads blocked in `poll`: once fired, its read end stays readable.
struct WakePipe: Sendable {
    /// The end to poll for readability.
    var fd: Int32 { readEnd }
    private let readEnd: Int32
    private let writeEnd: Int32

    init() throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw SocketError("pipe") }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    /// Wakes every current and future waiter.
    func fire() {
        var byte: UInt8 = 1
        _ = posixWrite(writeEnd, &byte, 1)
    }

    func close() {
        _ = posixClose(readEnd)
        _ = posixClose(writeEnd)
    }
}

#if canImport(Glibc)
    private func posixWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        Glibc.write(fd, bytes, count)
    }
#elseif canImport(Darwin)
    private func posixWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        Darwin.write(fd, bytes, count)
    }
#endif

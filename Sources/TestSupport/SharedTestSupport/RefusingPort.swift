public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A loopback port that refuses every connection: bound by this process and never listening, so that no other
/// test can take it meanwhile (a port a stopped server released may be bound again by a parallel test at once).
public final class RefusingPort: Sendable {
    /// `http://127.0.0.1:PORT`.
    public let baseURL: URL
    public let port: Int
    private let fd: Int32

    /// - Throws: `POSIXError` when no socket can be bound.
    public init() throws {
        // Darwin: `#define SOCK_STREAM 1`, `#define AF_INET 2` (xnu bsd/sys/socket.h:113, :391), both Int32.
        #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard fd >= 0, bound else {
            let code = POSIXErrorCode(rawValue: errno) ?? .EIO
            if fd >= 0 { close(fd) }
            throw POSIXError(code)
        }
        self.fd = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        baseURL = URL(string: "http://127.0.0.1:\(port)")!
    }

    deinit {
        close(fd)
    }
}

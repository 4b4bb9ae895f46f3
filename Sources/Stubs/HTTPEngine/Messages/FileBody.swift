#if os(Linux)
    import CLinux
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A body the kernel can send without copying it through the process: its bytes, also kept in an anonymous
/// in-memory file that `sendfile` hands to the socket by reference (Linux). Worth it for large bodies sent often;
/// the bytes stay for HEAD, partial answers and platforms without it.
package final class FileBody: Sendable, Equatable {
    /// The body.
    package let bytes: [UInt8]
    /// The in-memory file holding `bytes`, closed when the last answer that sends it is done.
    let fd: Int32

    /// Copies `bytes` into a new in-memory file; nil where there is none (not Linux) or it cannot be made.
    package init?(_ bytes: [UInt8]) {
        // Elsewhere nil: xnu has no memfd_create (no such call in xnu bsd/kern/syscalls.master).
        #if os(Linux)
            let fd = clinux_memfd_create("stub-body")
            guard fd >= 0 else { return nil }
            var written = 0
            while written < bytes.count {
                let count = bytes.withUnsafeBytes { raw in
                    Glibc.write(fd, raw.baseAddress! + written, raw.count - written)
                }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else {
                    _ = Glibc.close(fd)
                    return nil
                }
                written += count
            }
            self.fd = fd
            self.bytes = bytes
        #else
            return nil
        #endif
    }

    /// Takes `fd` as the file of `bytes`; the body closes it. Tests use a descriptor `sendfile` cannot read.
    init(bytes: [UInt8], adopting fd: Int32) {
        self.bytes = bytes
        self.fd = fd
    }

    deinit {
        _ = posixClose(fd)
    }

    package static func == (lhs: FileBody, rhs: FileBody) -> Bool {
        lhs === rhs || lhs.bytes == rhs.bytes
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes whole lines to stdout and stderr, flushed, from any thread.
package enum Output {
    package static func line(_ text: String) {
        write(Array((text + "\n").utf8), to: STDOUT_FILENO)
    }

    package static func error(_ text: String) {
        write(Array((text + "\n").utf8), to: STDERR_FILENO)
    }

    /// Writes all of `bytes` to `descriptor` (one `write` unless the pipe takes them in parts); stops quietly when
    /// the reader has gone or stays full for a second, as a closed terminal is no reason to stop serving.
    static func write(_ bytes: [UInt8], to descriptor: Int32) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                // Darwin: `ssize_t write(int, const void *, size_t)` (Libc include/unistd.h:556), so an Int.
                #if canImport(Glibc)
                    let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                #else
                    let written = Darwin.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                #endif
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else if written < 0 && errno == EAGAIN {
                    // A non-blocking stdout that is full: wait up to a second for the reader, then drop the line.
                    var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                    if poll(&ready, 1, 1000) <= 0 { return }
                } else {
                    return
                }
            }
        }
    }
}

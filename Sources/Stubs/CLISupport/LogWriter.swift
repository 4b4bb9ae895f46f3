package import Dispatch
import Locking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes request log lines to stdout in batches, so that logging costs the server one `write` per batch
/// rather than one per request: `flush` runs every 50 ms, and `append` flushes once 32 KB are waiting.
package final class LogWriter: Sendable {
    package init() {}

    private let pending = Lock<[UInt8]>([])

    package func append(_ line: String) {
        let full = pending.withLock { bytes in
            bytes.append(contentsOf: line.utf8)
            bytes.append(0x0A)
            return bytes.count >= 32_768
        }
        if full { flush() }
    }

    /// Writes what is waiting now.
    package func flush() {
        let bytes = pending.withLock { bytes in
            defer { bytes.removeAll(keepingCapacity: true) }
            return bytes
        }
        if !bytes.isEmpty { Output.write(bytes, to: STDOUT_FILENO) }
    }

    /// Flushes every 50 ms until the returned timer is cancelled.
    package func startFlushing() -> any DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "stub-server.log"))
        timer.schedule(deadline: .now() + .milliseconds(50), repeating: .milliseconds(50))
        timer.setEventHandler { [self] in flush() }
        timer.resume()
        return timer
    }
}

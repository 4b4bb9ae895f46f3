import Dispatch
import Locking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Catches SIGINT and SIGTERM from the moment it is made, so that a signal that arrives before anyone waits is
/// not lost (nor left to kill the process), and hands the first one to `wait()`.
package final class TerminationSignals: Sendable {
    private let state = Lock<
        (received: String?, waiter: CheckedContinuation<String, Never>?, sources: [any DispatchSourceSignal])
    >(
        (nil, nil, []))

    package init() {
        let queue = DispatchQueue(label: "stub-server.signals")
        for (number, name) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [weak self] in self?.receive(name) }
            source.resume()
            state.withLock { $0.sources.append(source) }
        }
    }

    /// The name of the first signal received, waiting for one if none came yet.
    package func wait() async -> String {
        await withCheckedContinuation { continuation in
            let received = state.withLock { state in
                if state.received == nil { state.waiter = continuation }
                return state.received
            }
            if let received { continuation.resume(returning: received) }
        }
    }

    private func receive(_ name: String) {
        let waiter = state.withLock { state in
            if state.received == nil { state.received = name }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: name)
    }
}

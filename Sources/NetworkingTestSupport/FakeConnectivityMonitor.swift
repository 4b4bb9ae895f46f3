import Networking
import Synchronization

/// A `ConnectivityMonitor` the test drives: `set(_:)` changes the status and tells every listener.
public final class FakeConnectivityMonitor: ConnectivityMonitor {
    private let state:
        Mutex<
            (
                status: ConnectivityStatus, listeners: [UInt64: AsyncStream<ConnectivityStatus>.Continuation],
                next: UInt64
            )
        >

    public init(_ status: ConnectivityStatus = .satisfied) {
        state = Mutex((status, [:], 0))
    }

    public var status: ConnectivityStatus {
        get async { state.withLock { $0.status } }
    }

    /// Changes the status and yields it to every current listener.
    public func set(_ status: ConnectivityStatus) {
        let listeners = state.withLock { state in
            state.status = status
            return Array(state.listeners.values)
        }
        for listener in listeners { listener.yield(status) }
    }

    public func updates() -> AsyncStream<ConnectivityStatus> {
        AsyncStream { continuation in
            let id = state.withLock { state in
                defer { state.next += 1 }
                state.listeners[state.next] = continuation
                continuation.yield(state.status)
                return state.next
            }
            continuation.onTermination = { [weak self] _ in
                _ = self?.state.withLock { $0.listeners.removeValue(forKey: id) }
            }
        }
    }
}

import Locking

/// The latest `ConnectivityStatus` and the streams that follow it: the bookkeeping every push-style monitor
/// shares.
public final class ConnectivityBroadcast: Sendable {
    private let state:
        Lock<
            (
                status: ConnectivityStatus, listeners: [UInt64: AsyncStream<ConnectivityStatus>.Continuation],
                next: UInt64
            )
        >

    public init(_ status: ConnectivityStatus) {
        state = Lock((status, [:], 0))
    }

    /// The latest status.
    public var status: ConnectivityStatus {
        state.withLock { $0.status }
    }

    /// Records `status` and yields it to every current listener.
    public func send(_ status: ConnectivityStatus) {
        let listeners = state.withLock { state in
            state.status = status
            return Array(state.listeners.values)
        }
        for listener in listeners { listener.yield(status) }
    }

    /// The latest status, then every status sent, until the consumer stops iterating.
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

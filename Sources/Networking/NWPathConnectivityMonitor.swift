#if canImport(Network)
    import Network
    import Synchronization

    /// A `ConnectivityMonitor` backed by the Network framework's `NWPathMonitor`.
    public final class NWPathConnectivityMonitor: ConnectivityMonitor {
        private let monitor = NWPathMonitor()
        private let state = Mutex<
            (
                status: ConnectivityStatus, listeners: [UInt64: AsyncStream<ConnectivityStatus>.Continuation],
                next: UInt64
            )
        >((.satisfied, [:], 0))

        public init() {
            monitor.pathUpdateHandler = { [weak self] path in
                guard let self else { return }
                let status: ConnectivityStatus =
                    switch path.status {
                    case .satisfied: .satisfied
                    case .requiresConnection: .requiresConnection
                    default: .unsatisfied
                    }
                let listeners = self.state.withLock { state in
                    state.status = status
                    return Array(state.listeners.values)
                }
                for listener in listeners { listener.yield(status) }
            }
            monitor.start(queue: DispatchQueue(label: "NWPathConnectivityMonitor"))
        }

        deinit {
            monitor.cancel()
        }

        public var status: ConnectivityStatus {
            get async { state.withLock { $0.status } }
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
#endif

// Checked against developer.apple.com/documentation/network/nwpathmonitor (`final class`, init(), start(queue:),
// cancel()), .../nwpathmonitor/pathupdatehandler (`@preconcurrency final var pathUpdateHandler:
// (@Sendable (NWPath) -> Void)?`; the closure captures only `broadcast`, which is Sendable) and
// .../nwpath/status-swift.enum (satisfied, unsatisfied, requiresConnection).
#if canImport(Network)
    import Dispatch
    import Network

    /// A `ConnectivityMonitor` backed by the Network framework's `NWPathMonitor`.
    public final class NWPathConnectivityMonitor: ConnectivityMonitor {
        private let monitor = NWPathMonitor()
        private let broadcast = ConnectivityBroadcast(.satisfied)

        public init() {
            monitor.pathUpdateHandler = { [broadcast] path in
                switch path.status {
                case .satisfied: broadcast.send(.satisfied)
                case .requiresConnection: broadcast.send(.requiresConnection)
                default: broadcast.send(.unsatisfied)
                }
            }
            monitor.start(queue: DispatchQueue(label: "NWPathConnectivityMonitor"))
        }

        deinit {
            monitor.cancel()
        }

        public var status: ConnectivityStatus {
            get async { broadcast.status }
        }

        public func updates() -> AsyncStream<ConnectivityStatus> {
            broadcast.updates()
        }
    }
#endif

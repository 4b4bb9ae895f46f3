// Checked against developer.apple.com/documentation/network/nwpathmonitor (`final class`, init(), start(queue:),
// cancel()), .../nwpathmonitor/pathupdatehandler (`@preconcurrency final var pathUpdateHandler:
// (@Sendable (NWPath) -> Void)?`; the closure captures only `broadcast`, which is Sendable) and
// .../nwpath/status-swift.enum (satisfied, unsatisfied, requiresConnection). Apple's pages do not say whether
// `NWPathMonitor` is `Sendable` in every SDK this package supports, so it is held in a `Lock`, which is `Sendable`
// whatever it holds.
#if canImport(Network)
    import Dispatch
    import Locking
    import Network

    /// A `ConnectivityMonitor` backed by the Network framework's `NWPathMonitor`.
    public final class NWPathConnectivityMonitor: ConnectivityMonitor {
        private let monitor: Lock<NWPathMonitor>
        private let broadcast = ConnectivityBroadcast(.satisfied)

        public init() {
            let monitor = NWPathMonitor()
            monitor.pathUpdateHandler = { [broadcast] path in
                switch path.status {
                case .satisfied: broadcast.send(.satisfied)
                case .requiresConnection: broadcast.send(.requiresConnection)
                default: broadcast.send(.unsatisfied)
                }
            }
            monitor.start(queue: DispatchQueue(label: "NWPathConnectivityMonitor"))
            self.monitor = Lock(monitor)
        }

        deinit {
            monitor.withLock { $0.cancel() }
        }

        public var status: ConnectivityStatus {
            get async { broadcast.status }
        }

        public func updates() -> AsyncStream<ConnectivityStatus> {
            broadcast.updates()
        }
    }
#endif

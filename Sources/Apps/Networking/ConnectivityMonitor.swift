/// Whether the network can be used, as `NWPathMonitor` reports it.
public enum ConnectivityStatus: Sendable, Equatable {
    case satisfied
    case unsatisfied
    /// Not connected now, but a connection would be made on demand (a VPN or cellular on request).
    case requiresConnection
}

/// Reports the network's status now and as it changes.
public protocol ConnectivityMonitor: Sendable {
    /// The status now.
    var status: ConnectivityStatus { get async }
    /// The current status, then every change, until the consumer stops iterating.
    func updates() -> AsyncStream<ConnectivityStatus>
}

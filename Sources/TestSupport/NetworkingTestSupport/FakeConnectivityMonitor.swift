public import Networking

/// A `ConnectivityMonitor` the test drives: `set(_:)` changes the status and tells every listener.
public final class FakeConnectivityMonitor: ConnectivityMonitor {
    private let broadcast: ConnectivityBroadcast

    public init(_ status: ConnectivityStatus = .satisfied) {
        broadcast = ConnectivityBroadcast(status)
    }

    public var status: ConnectivityStatus {
        get async { broadcast.status }
    }

    /// Changes the status and yields it to every current listener.
    public func set(_ status: ConnectivityStatus) {
        broadcast.send(status)
    }

    public func updates() -> AsyncStream<ConnectivityStatus> {
        broadcast.updates()
    }
}

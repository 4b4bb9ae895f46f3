package import HTTPMessages

/// What only a socket server has for the admin API: its engine's counters and its open WebSockets. Stubs that
/// answer in process have none.
package protocol AdminSockets: Sendable {
    /// The engine's counters for `GET /__stub/health`.
    var counters: SocketCounters { get }
    /// How many WebSockets each stub has open.
    var webSocketCounts: [String: Int] { get }
    /// Sends `message` on every open WebSocket of `stub`; returns how many it went to.
    func send(_ message: WebSocketMessage, stub: String) -> Int
    /// Starts the closing handshake on every open WebSocket of `stub`; returns how many it closes.
    /// - Throws: `StubServerError.invalidCloseCode`.
    func close(stub: String, code: UInt16, reason: String) throws -> Int
}

/// What a socket server counts of its connections.
package struct SocketCounters: Sendable {
    /// Connections closed because their client stopped reading.
    package var stalledConnections: Int
    /// Times accepting stopped for want of file descriptors.
    package var acceptPauses: Int

    package init(stalledConnections: Int, acceptPauses: Int) {
        self.stalledConnections = stalledConnections
        self.acceptPauses = acceptPauses
    }
}

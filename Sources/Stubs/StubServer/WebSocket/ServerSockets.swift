import HTTPMessages
import StubAdmin
import StubCore

/// What the admin API reaches of a socket server beyond the control: its engine's counters and open WebSockets.
struct ServerSockets: AdminSockets {
    let server: StubServer

    var counters: SocketCounters {
        SocketCounters(stalledConnections: server.stalledConnections, acceptPauses: server.acceptPauses)
    }

    var webSocketCounts: [String: Int] { server.webSocketRegistry.counts }

    func send(_ message: WebSocketMessage, stub: String) -> Int {
        server.webSockets(stub: stub).send(message)
    }

    func close(stub: String, code: UInt16, reason: String) throws -> Int {
        try server.webSockets(stub: stub).close(code: code, reason: reason)
    }
}

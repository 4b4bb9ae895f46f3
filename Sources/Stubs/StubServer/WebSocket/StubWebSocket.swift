import HTTPEngine
import HTTPMessages
import Locking
import StubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One open WebSocket of a stub: runs the variant's script, journals every message both ways, and is listed in
/// the server's registry while open, for tests and the admin API to send on.
final class StubWebSocket: WebSocketHandler {
    let stub: String
    let script: WebSocketScript
    /// The journal entry of the handshake, which gathers the socket's messages.
    let entry: Int?
    private let runtime: StubRuntime
    private let registry: WebSocketRegistry

    init(stub: String, script: WebSocketScript, entry: Int?, runtime: StubRuntime, registry: WebSocketRegistry) {
        self.stub = stub
        self.script = script
        self.entry = entry
        self.runtime = runtime
        self.registry = registry
    }

    func opened(_ socket: WebSocketChannel) -> [WebSocketOutput] {
        registry.opened(socket, stub: stub)
        updateEntry { $0.webSocketMessages = [] }
        return script.opening
    }

    func received(_ message: WebSocketMessage, on socket: WebSocketChannel) -> [WebSocketOutput] {
        updateEntry { $0.webSocketMessages?.append(message.record(.received)) }
        return script.replies(to: message)
    }

    func sent(_ message: WebSocketMessage, on socket: WebSocketChannel) {
        updateEntry { $0.webSocketMessages?.append(message.record(.sent)) }
    }

    func closed(_ socket: WebSocketChannel, code: UInt16?, reason: String) {
        registry.closed(socket, stub: stub)
        let how = code.map { reason.isEmpty ? "\($0)" : "\($0) \(reason)" } ?? "no close frame: \(reason)"
        updateEntry { $0.webSocketClose = how }
    }

    private func updateEntry(_ change: (inout JournalEntry) -> Void) {
        guard let entry else { return }
        runtime.updateEntry(entry, change)
    }
}

extension WebSocketMessage {
    func record(_ direction: JournalEntry.WebSocketRecord.Direction) -> JournalEntry.WebSocketRecord {
        switch self {
        case .text(let text): JournalEntry.WebSocketRecord(direction, text: text)
        case .binary(let bytes): JournalEntry.WebSocketRecord(direction, binary: Data(bytes))
        }
    }
}

/// The open WebSockets of a server, by stub.
final class WebSocketRegistry: Sendable {
    private let sockets = Lock<[String: Set<WebSocketChannel>]>([:])

    func opened(_ socket: WebSocketChannel, stub: String) {
        sockets.withLock { _ = $0[stub, default: []].insert(socket) }
    }

    func closed(_ socket: WebSocketChannel, stub: String) {
        sockets.withLock { sockets in
            sockets[stub]?.remove(socket)
            if sockets[stub]?.isEmpty == true { sockets[stub] = nil }
        }
    }

    /// The open sockets of `stub`.
    func open(stub: String) -> [WebSocketChannel] {
        sockets.withLock { Array($0[stub] ?? []) }
    }

    /// How many sockets each stub has open.
    var counts: [String: Int] {
        sockets.withLock { $0.mapValues(\.count) }
    }
}

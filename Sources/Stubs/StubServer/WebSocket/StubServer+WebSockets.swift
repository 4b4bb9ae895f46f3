import HTTPEngine
import HTTPMessages
import StubCore

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension StubServer {
    /// The open WebSockets of stub `stub`: to send them messages from a test, or close them.
    public func webSockets(stub: String) -> StubWebSockets {
        StubWebSockets(stub: stub, server: self)
    }

    /// The engine's action for a handshake to a scripted variant: `101` and the script, or `400` with the reason
    /// the handshake is refused.
    func webSocketAction(_ script: WebSocketScript, for decision: StubDecision, request: Request) -> Reply.Action {
        do throws(WebSocketHandshake.Refusal) {
            let handshake = try WebSocketHandshake(request: request, supported: script.protocols)
            let handler = StubWebSocket(
                stub: decision.stubName ?? "", script: script, entry: decision.journalID, runtime: runtime,
                registry: webSocketRegistry)
            return .webSocket(WebSocketAccept(handshake: handshake, handler: handler))
        } catch {
            let stub = decision.stubName ?? ""
            let status = error.upgradeRequired ? HTTPStatus(426) : .badRequest
            var response = Response.error(
                HTTPError(status, "stub \(stub) is a WebSocket and this is not a valid handshake: \(error.reason)"))
            response.headers.set("X-Stub-Name", stub)
            if error.upgradeRequired { response.headers.set("Sec-WebSocket-Version", "13") }
            return .respond(response)
        }
    }

    /// The open sockets of `stub`.
    func openWebSockets(stub: String) -> [WebSocketChannel] {
        webSocketRegistry.open(stub: stub)
    }
}

/// The open WebSockets of one stub. Messages go to every socket open when they are sent; each is journaled as it
/// goes out.
public struct StubWebSockets: Sendable {
    /// The stub's name.
    package let stub: String
    let server: StubServer

    /// How many of the stub's sockets are open.
    public var count: Int { server.openWebSockets(stub: stub).count }

    /// Sends a text message to each open socket; returns how many it went to.
    @discardableResult
    public func send(_ text: String) -> Int {
        send(.text(text))
    }

    /// Sends a binary message to each open socket; returns how many it went to.
    @discardableResult
    public func send(binary: Data) -> Int {
        send(.binary([UInt8](binary)))
    }

    /// Starts the closing handshake on each open socket with `code` (1000 by default) and `reason` (cut to the
    /// 123 bytes a close frame holds); returns how many sockets it closes.
    /// - Throws: `StubServerError.invalidCloseCode` for a code a close frame may not carry (RFC 6455, 7.4).
    @discardableResult
    public func close(code: UInt16 = 1000, reason: String = "") throws -> Int {
        guard WebSocketCloseCode.maySend(Int(code)) else {
            throw StubServerError.invalidCloseCode(code)
        }
        return send(output: .close(code: code, reason: reason))
    }

    func send(_ message: WebSocketMessage) -> Int {
        switch message {
        case .text(let text): send(output: .text(text))
        case .binary(let bytes): send(output: .binary(bytes))
        }
    }

    private func send(output: WebSocketOutput.Kind) -> Int {
        let sockets = server.openWebSockets(stub: stub)
        for socket in sockets { socket.send([WebSocketOutput(output)]) }
        return sockets.count
    }
}

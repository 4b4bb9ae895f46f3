/// What `ConnectionStateMachine` asks its connection to do.

import HTTPMessages

enum ConnectionAction {
    /// Queue bytes for the client.
    case send(Wire)
    /// Stop writing: the client reads end of stream after what was sent.
    case shutdownWrite
    /// Make the coming close send a TCP reset.
    case resetOnClose
    /// Close the socket.
    case close
    /// Count a connection closed because its client took none of its pending output for the idle timeout.
    case writeStalled
    /// Report a finished reply, with when its request was complete.
    case finish(@Sendable (_ milliseconds: Double) -> Void, began: Double)
    /// Report a stream's end with how many pieces went out.
    case streamEnded(@Sendable (_ piecesSent: Int) -> Void, piecesSent: Int)
    /// The connection became a WebSocket: read frames from now on, and ask the handler what to send first.
    case upgrade(any WebSocketHandler)
    /// Hand a client's message to the WebSocket's handler.
    case webSocketReceived(WebSocketMessage)
    /// Tell the handler a message went out.
    case webSocketSent(WebSocketMessage)
    /// Tell the handler the socket closed: the connection's, or `handler` for a socket that never opened.
    case webSocketClosed(handler: (any WebSocketHandler)? = nil, code: UInt16?, reason: String)

    /// Bytes on the wire, described rather than serialised, so the state machine needs no clock for `Date`.
    enum Wire: Equatable {
        case continueInterim
        case response(Response, keepAlive: Bool, withBody: Bool)
        case streamHead(Response, keepAlive: Bool, contentLength: Int?, chunked: Bool)
        case piece([UInt8], chunked: Bool)
        /// Bytes as they are: the `101` head and WebSocket frames.
        case raw([UInt8])
        case lastChunk
        /// The response without its last `withholding` bytes.
        case partial(Response, withholding: Int)
        case error(HTTPError)
    }

    /// A short description for tests: `send 200`, `send piece 3`, `close`, `finish`.
    var summary: String {
        switch self {
        case .send(.continueInterim): "send 100"
        case .send(.response(let response, let keepAlive, let withBody)):
            "send \(response.status.code)\(keepAlive ? "" : " close")\(withBody ? "" : " head-only")"
        case .send(.streamHead(let response, _, let length, let chunked)):
            "send head \(response.status.code) \(chunked ? "chunked" : "length \(length ?? 0)")"
        case .send(.piece(let bytes, _)): "send piece \(bytes.count)"
        case .send(.lastChunk): "send last chunk"
        case .send(.raw(let bytes)): "send raw \(bytes.count)"
        case .send(.partial(_, let withholding)): "send partial -\(withholding)"
        case .send(.error(let error)): "send error \(error.status.code)"
        case .shutdownWrite: "shutdown write"
        case .resetOnClose: "reset on close"
        case .close: "close"
        case .writeStalled: "write stalled"
        case .finish: "finish"
        case .streamEnded(_, let count): "stream ended after \(count)"
        case .upgrade: "upgrade"
        case .webSocketReceived(let message): "received \(message.summary)"
        case .webSocketSent(let message): "sent \(message.summary)"
        case .webSocketClosed(_, let code, let reason): "closed \(code.map(String.init) ?? "-") \(reason)"
        }
    }
}

extension WebSocketMessage {
    /// `text hello`, `binary 3`: for tests.
    var summary: String {
        switch self {
        case .text(let text): "text \(text)"
        case .binary(let bytes): "binary \(bytes.count)"
        }
    }
}

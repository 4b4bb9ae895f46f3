/// What the engine does with one request: send a response, or break the connection on purpose, after a delay.

package import HTTPMessages

package struct Reply: Sendable {
    package var action: Action
    /// Milliseconds to wait before carrying out the action; later requests on the connection wait behind it.
    package var delayMs: Int
    /// Called on the loop's thread once the action is carried out, with the milliseconds since the request was
    /// complete: for a log line.
    package var onFinish: (@Sendable (_ milliseconds: Double) -> Void)?
    /// For `.stream`: called on the loop's thread once the stream ends, however it ends (played out, cut on
    /// purpose, the client gone, the server stopping), with how many pieces were queued for the client.
    package var onStreamEnd: (@Sendable (_ piecesSent: Int) -> Void)?

    package init(
        _ action: Action, delayMs: Int = 0, onFinish: (@Sendable (_ milliseconds: Double) -> Void)? = nil,
        onStreamEnd: (@Sendable (_ piecesSent: Int) -> Void)? = nil
    ) {
        self.action = action
        self.delayMs = delayMs
        self.onFinish = onFinish
        self.onStreamEnd = onStreamEnd
    }

    /// A transport action.
    package enum Action: Sendable, Equatable {
        /// The response, head and body at once.
        case respond(Response)
        /// The response's head now and its body as `pieces`, each after its pause; chunked or by length; then
        /// the body ends, or the connection breaks, as `end` says.
        case stream(Response, pieces: [BodyPiece], chunked: Bool, end: StreamEnd = .complete)
        /// Close without answering (after answers to earlier requests on the connection).
        case drop
        /// Abort the connection with a TCP reset.
        case reset
        /// The response without its last `withholding` bytes (at least one), then close: the peer sees a
        /// response cut short.
        case partial(Response, withholding: Int)
        /// These bytes as they are instead of a response, then close.
        case raw([UInt8])
        /// Never answer: input is read and dropped until the client leaves or the server stops.
        case silence
        /// Answer a WebSocket handshake with `101 Switching Protocols`; the connection then carries frames to and
        /// from the accept's handler.
        case webSocket(WebSocketAccept)
    }
}

/// Answers requests for the engine: now, or later from any thread through the promise.
package protocol HTTPResponder: Sendable {
    /// Decides the answer to `request`, on the loop's thread: keep it short, or return `.later` and fulfil
    /// `promise` when the answer is ready. Later requests on the same connection wait, in order.
    func respond(to request: Request, promise: ReplyPromise) -> Answer
}

/// A responder's answer to one request.
package enum Answer: Sendable {
    case now(Reply)
    /// The responder fulfils the promise later, from any thread.
    case later
}

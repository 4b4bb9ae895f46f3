/// The life of one connection as a pure value: events in, actions out, time passed in as `now`.
///
/// `Connection` feeds it what happened on the socket and the decoder, and carries out the actions it
/// returns; every phase and timer (idle, header 408, reply delay, streamed pauses, linger, write stall) lives here, so
/// each is tested with a clock the test steps.

import HTTPMessages

struct ConnectionStateMachine {
    /// What the connection is doing.
    enum State: Equatable {
        /// Decoding requests. A partial request started at `requestStarted` (for the header timeout).
        case reading(requestStarted: Double?)
        /// A request was handed to the responder; its reply has not come yet.
        case awaitingReply
        /// A reply waits for its delay; later requests wait behind it.
        case delaying(until: Double)
        /// A streamed body is being sent; the next piece is due at `nextAt`.
        case streaming(nextAt: Double)
        /// A `silence` reply: input is read and dropped until the client leaves.
        case silent
        /// Answered with an error: output drains, then writing stops, input drains until `until`, then close.
        case lingering(until: Double)
        /// The connection carries WebSocket frames (`socket`).
        case webSocket
        /// Output drains, then the connection closes.
        case closingAfterFlush
        case closed
    }

    /// Timeouts in milliseconds.
    struct Timeouts: Equatable {
        var idle: Double
        var header: Double
        var linger: Double = 1000
    }

    private(set) var state = State.reading(requestStarted: nil)
    let timeouts: Timeouts
    /// When bytes last arrived or the output last drained.
    private var lastActivity: Double
    /// Whether written bytes wait to be taken by the client.
    private(set) var outputPending = false {
        didSet { if outputPending, !oldValue { outputProgressAt = lastClock } }
    }
    /// When the client last took output, or output became pending: a client that takes none for the idle
    /// timeout has stalled, and the connection closes rather than hold its output forever.
    private var outputProgressAt: Double = 0
    /// The latest time an event carried, for `outputPending`'s observer.
    private var lastClock: Double = 0
    /// The client closed its side: answer what was asked, then close.
    private(set) var peerFinished = false
    private var shutDownWriting = false
    /// The request being answered.
    private var current = RequestInfo(keepAlive: true, isHead: false, began: 0)
    /// The reply held during its delay or while its body streams.
    private var held: Reply?
    private var pieces: ArraySlice<BodyPiece> = []
    /// Pieces of the held stream queued so far.
    private var piecesSent = 0
    /// The open WebSocket, once the connection upgraded.
    private(set) var socket: WebSocketSession?

    struct RequestInfo {
        var keepAlive: Bool
        var isHead: Bool
        var began: Double
    }

    init(timeouts: Timeouts, now: Double) {
        self.timeouts = timeouts
        lastActivity = now
        lastClock = now
    }

    // MARK: Questions the I/O type asks

    /// Whether decoded requests may be handed over now.
    var decodesRequests: Bool {
        if case .reading = state { return true }
        return false
    }

    /// Whether the socket should be read: always, but while closing.
    var wantsRead: Bool {
        switch state {
        case .closingAfterFlush, .closed: false
        default: true
        }
    }

    /// Whether arriving bytes are thrown away rather than decoded.
    var discardsInput: Bool {
        switch state {
        case .silent, .lingering: true
        default: false
        }
    }

    var isClosed: Bool { state == .closed }

    /// When `timerFired` has something to do next, nil for never.
    var deadline: Double? {
        guard outputPending, state != .closed else { return phaseDeadline }
        let stall = outputProgressAt + timeouts.idle
        return phaseDeadline.map { min($0, stall) } ?? stall
    }

    /// The deadline of the current phase alone.
    private var phaseDeadline: Double? {
        switch state {
        case .reading(let requestStarted):
            if let requestStarted { return requestStarted + timeouts.header }
            return outputPending ? nil : lastActivity + timeouts.idle
        case .delaying(let until), .lingering(let until):
            return until
        case .streaming(let nextAt):
            return nextAt
        case .webSocket:
            return socket?.deadline
        case .awaitingReply, .silent, .closingAfterFlush, .closed:
            return nil
        }
    }

    // MARK: Events

    /// Bytes arrived from the client.
    mutating func bytesArrived(now: Double) {
        lastActivity = now
        lastClock = now
        socket?.heard(now: now)
    }

    /// The client took some, not all, of the pending output.
    mutating func outputProgressed(now: Double) {
        lastClock = now
        outputProgressAt = now
    }

    /// The decoder has no complete request left; `partial` tells whether part of one is buffered.
    mutating func inputExhausted(partial: Bool, now: Double) -> [ConnectionAction] {
        lastClock = now
        guard case .reading(let requestStarted) = state else { return [] }
        if peerFinished { return closeAfterFlush() }
        state = .reading(requestStarted: partial ? requestStarted ?? now : nil)
        return []
    }

    /// The client sent `Expect: 100-continue` before a body.
    mutating func continueExpected(now: Double) -> [ConnectionAction] {
        guard decodesRequests else { return [] }
        lastClock = now
        outputPending = true
        return [.send(.continueInterim)]
    }

    /// A complete request was decoded and handed to the responder.
    mutating func requestDecoded(keepAlive: Bool, isHead: Bool, now: Double) {
        lastClock = now
        guard decodesRequests else { return }
        current = RequestInfo(keepAlive: keepAlive, isHead: isHead, began: now)
        state = .awaitingReply
    }

    /// The responder's reply to the current request, now or later.
    mutating func replyReady(_ reply: Reply, now: Double) -> [ConnectionAction] {
        lastClock = now
        guard state == .awaitingReply else { return [] }
        if reply.delayMs > 0 {
            held = reply
            state = .delaying(until: now + Double(reply.delayMs))
            return []
        }
        return perform(reply, now: now)
    }

    /// The request could not be decoded: answer the error, then linger and close.
    mutating func decodeFailed(_ error: HTTPError, now: Double) -> [ConnectionAction] {
        lastClock = now
        guard decodesRequests else { return [] }
        state = .lingering(until: now + timeouts.linger)
        outputPending = true
        return [.send(.error(error))]
    }

    /// The client closed its side (end of stream). While a body streams, that is the client leaving (as it leaves a
    /// stream of events): the stream stops at once rather than at its next piece, which may be minutes away.
    mutating func peerClosed() -> [ConnectionAction] {
        peerFinished = true
        switch state {
        case .silent, .lingering, .streaming: return close()
        case .webSocket: return close(reason: "the client closed the connection")
        default: return []
        }
    }

    /// Every pending byte was written.
    mutating func outputDrained(now: Double) -> [ConnectionAction] {
        lastClock = now
        outputPending = false
        lastActivity = now
        switch state {
        case .closingAfterFlush:
            return close()
        case .lingering where !shutDownWriting:
            shutDownWriting = true
            return [.shutdownWrite]
        default:
            return []
        }
    }

    /// The socket failed: nothing more can be sent.
    mutating func failed() -> [ConnectionAction] {
        close(reason: "the connection broke")
    }

    /// The server stops.
    mutating func serverStopping() -> [ConnectionAction] {
        close(reason: "the server stopped")
    }

    // MARK: WebSocket events

    /// The client's frames, up to `failure` if they broke the protocol.
    mutating func webSocketReceived(
        _ events: [WebSocketDecoder.Event], failure: WebSocketDecoder.Failure?, now: Double
    ) -> [ConnectionAction] {
        lastClock = now
        guard state == .webSocket, var session = socket else { return [] }
        var actions = session.receive(events, now: now)
        if let failure { actions += session.fail(failure) }
        socket = session
        return carryOut(actions)
    }

    /// Outputs for the open WebSocket, from its handler.
    mutating func webSocketOutputs(_ outputs: [WebSocketOutput], now: Double) -> [ConnectionAction] {
        lastClock = now
        guard state == .webSocket, var session = socket else { return [] }
        let actions = session.schedule(outputs, now: now)
        socket = session
        return carryOut(actions)
    }

    private mutating func carryOut(_ actions: [WebSocketSession.Action]) -> [ConnectionAction] {
        var result: [ConnectionAction] = []
        for action in actions {
            switch action {
            case .write(let bytes, let message):
                outputPending = true
                result.append(.send(.raw(bytes)))
                if let message { result.append(.webSocketSent(message)) }
            case .received(let message):
                result.append(.webSocketReceived(message))
            case .end(let code, let reason, let abort):
                socket = nil
                result.append(.webSocketClosed(code: code, reason: reason))
                result += abort ? close() : closeAfterFlush()
            }
        }
        return result
    }

    /// Fires what is due at `now`: a held reply, a streamed piece, the header or idle timeout, the linger's end.
    mutating func timerFired(now: Double) -> [ConnectionAction] {
        guard let deadline, now >= deadline else { return [] }
        lastClock = now
        if outputPending, state != .closed, now >= outputProgressAt + timeouts.idle {
            return [.writeStalled] + close()
        }
        switch state {
        case .reading(let requestStarted):
            if requestStarted != nil {
                let limit = Int(timeouts.header)
                return decodeFailed(
                    HTTPError(.requestTimeout, "request not complete within \(limit) ms of its first byte"), now: now)
            }
            return close()
        case .delaying:
            guard let reply = held else { return close() }
            held = nil
            state = .awaitingReply
            return perform(reply, now: now)
        case .streaming:
            return sendDuePieces(now: now)
        case .webSocket:
            guard var session = socket else { return [] }
            let actions = session.timerFired(now: now)
            socket = session
            return carryOut(actions)
        case .lingering:
            return close()
        case .awaitingReply, .silent, .closingAfterFlush, .closed:
            return []
        }
    }

    // MARK: Carrying out replies

    private mutating func perform(_ reply: Reply, now: Double) -> [ConnectionAction] {
        var actions: [ConnectionAction] = []
        switch reply.action {
        case .respond(let response) where current.keepAlive:
            // The common case, in one array: the answer, the report, and back to reading.
            outputPending = true
            state = .reading(requestStarted: nil)
            let send = ConnectionAction.send(.response(response, keepAlive: true, withBody: !current.isHead))
            guard let onFinish = reply.onFinish else { return [send] }
            return [send, .finish(onFinish, began: current.began)]
        case .respond(let response):
            actions.append(.send(.response(response, keepAlive: current.keepAlive, withBody: !current.isHead)))
        case .stream(let response, let pieces, let chunked, let end):
            let length = pieces.reduce(0) { $0 + $1.bytes.count }
            if current.isHead || !response.status.allowsContent || (pieces.isEmpty && end == .complete) {
                // A HEAD answer's framing is its GET's; an empty stream that ends at once is an empty body.
                let framed = chunked && current.isHead
                actions.append(
                    .send(
                        .streamHead(
                            response, keepAlive: current.keepAlive, contentLength: framed ? nil : length,
                            chunked: framed)))
                if let onStreamEnd = reply.onStreamEnd { actions.append(.streamEnded(onStreamEnd, piecesSent: 0)) }
            } else {
                actions.append(
                    .send(
                        .streamHead(
                            response, keepAlive: current.keepAlive, contentLength: chunked ? nil : length,
                            chunked: chunked)))
                held = reply
                self.pieces = pieces[...]
                piecesSent = 0
                outputPending = true
                state = .streaming(nextAt: now + Double(pieces.first?.pauseMs ?? 0))
                return actions + sendDuePieces(now: now)
            }
        case .drop:
            return finish(reply, now: now, keepAlive: false)
        case .reset:
            return [.resetOnClose] + finish(reply, now: now, keepAlive: false)
        case .partial(let response, let withholding):
            actions.append(.send(.partial(response, withholding: withholding)))
            outputPending = true
            return actions + finish(reply, now: now, keepAlive: false)
        case .raw(let bytes):
            actions.append(.send(.raw(bytes)))
            outputPending = true
            return actions + finish(reply, now: now, keepAlive: false)
        case .silence:
            state = .silent
            if let onFinish = reply.onFinish { return [.finish(onFinish, began: current.began)] }
            return []
        case .webSocket(let accept):
            outputPending = true
            state = .webSocket
            socket = WebSocketSession(now: now, pingIntervalMs: timeouts.idle)
            actions = [.send(.raw(accept.handshake.responseHead)), .upgrade(accept.handler)]
            if let onFinish = reply.onFinish { actions.append(.finish(onFinish, began: current.began)) }
            return actions
        }
        outputPending = true
        return actions + finish(reply, now: now, keepAlive: current.keepAlive)
    }

    /// Sends every piece due at `now`; after the last, finishes the reply.
    private mutating func sendDuePieces(now: Double) -> [ConnectionAction] {
        guard case .streaming(var nextAt) = state, let reply = held,
            case .stream(_, _, let chunked, let end) = reply.action
        else { return [] }
        var actions: [ConnectionAction] = []
        while let piece = pieces.first, nextAt <= now {
            pieces.removeFirst()
            piecesSent += 1
            actions.append(.send(.piece(piece.bytes, chunked: chunked)))
            if let following = pieces.first { nextAt += Double(following.pauseMs) }
        }
        guard pieces.isEmpty else {
            if !actions.isEmpty { outputPending = true }
            state = .streaming(nextAt: nextAt)
            return actions
        }
        if chunked, end == .complete { actions.append(.send(.lastChunk)) }
        if !actions.isEmpty { outputPending = true }
        actions += endStream()
        state = .awaitingReply
        switch end {
        case .complete: return actions + finish(reply, now: now, keepAlive: current.keepAlive)
        case .drop: return actions + finish(reply, now: now, keepAlive: false)
        case .reset: return actions + [.resetOnClose] + finish(reply, now: now, keepAlive: false)
        case .hang:
            state = .silent
            if let onFinish = reply.onFinish { actions.append(.finish(onFinish, began: current.began)) }
            return actions
        }
    }

    /// The reply is out: report it, then read the next request or close.
    private mutating func finish(_ reply: Reply, now: Double, keepAlive: Bool) -> [ConnectionAction] {
        var actions: [ConnectionAction] = []
        if let onFinish = reply.onFinish { actions.append(.finish(onFinish, began: current.began)) }
        if keepAlive {
            state = .reading(requestStarted: nil)
            return actions
        }
        return actions + closeAfterFlush()
    }

    private mutating func closeAfterFlush() -> [ConnectionAction] {
        if outputPending {
            state = .closingAfterFlush
            return []
        }
        return close()
    }

    private mutating func close(reason: String = "the connection closed") -> [ConnectionAction] {
        guard state != .closed else { return [] }
        var report = abandonStream(reason: reason)
        if socket != nil {
            socket = nil
            report.append(.webSocketClosed(code: nil, reason: reason))
        }
        state = .closed
        held = nil
        return report + [.close]
    }

    /// Lets go of a held stream, reporting how many of its pieces went out.
    private mutating func endStream() -> [ConnectionAction] {
        defer { held = nil }
        guard case .streaming = state, let onStreamEnd = held?.onStreamEnd else { return [] }
        return [.streamEnded(onStreamEnd, piecesSent: piecesSent)]
    }

    /// For a stream the connection ends under (the client left, the server stops), also one still in its delay:
    /// its report and its finish, so that it is logged like a stream played out; a socket that never opened is
    /// reported closed to its handler.
    private mutating func abandonStream(reason: String) -> [ConnectionAction] {
        guard let reply = held else { return [] }
        var actions: [ConnectionAction] = []
        switch (state, reply.action) {
        case (.streaming, _):
            actions = endStream()
        case (.delaying, .stream):
            if let onStreamEnd = reply.onStreamEnd { actions.append(.streamEnded(onStreamEnd, piecesSent: 0)) }
        case (.delaying, .webSocket(let accept)):
            actions.append(.webSocketClosed(handler: accept.handler, code: nil, reason: reason))
        default:
            return []
        }
        held = nil
        guard let onFinish = reply.onFinish else { return actions }
        return actions + [.finish(onFinish, began: current.began)]
    }
}

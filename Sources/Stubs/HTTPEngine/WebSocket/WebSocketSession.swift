import HTTPMessages

/// An open WebSocket as a pure value (RFC 6455, 5.5 and 7): what the client sent in, what to write out and when,
/// the closing handshake, and the pings that keep a quiet socket open. Time is passed in as `now` (milliseconds).
struct WebSocketSession {
    enum Phase: Equatable {
        case open
        /// The server sent its close frame and waits for the client's until `until`.
        case closing(until: Double)
        case closed
    }

    enum Action: Equatable {
        /// Write a frame; `message` when it carries one (for the handler's record).
        case write([UInt8], message: WebSocketMessage?)
        /// Hand a message to the handler.
        case received(WebSocketMessage)
        /// The socket is over: close the connection (at once when `abort`, else once the output is out).
        case end(code: UInt16?, reason: String, abort: Bool)
    }

    private(set) var phase = Phase.open
    /// Outputs waiting for their time, in the order they are due (ties in the order handed over).
    private var scheduled: [(due: Double, kind: WebSocketOutput.Kind)] = []
    /// The rest of a fragmented message under way, each frame when it is due; the message goes with the last.
    /// Nothing else goes out before it ends: no other message may come between a message's frames.
    private var fragments: [(due: Double, frame: [UInt8], message: WebSocketMessage?)] = []
    /// Milliseconds between a fragmented message's frames: written together, they reach a client in one read.
    static let fragmentPauseMs = 100.0
    /// When the client last sent anything.
    private var lastHeard: Double
    /// When the unanswered ping went out, if one is out.
    private var pingSentAt: Double?
    /// A socket quiet this long gets a ping; a ping unanswered this long closes it; so does a close unanswered.
    let pingIntervalMs: Double

    init(now: Double, pingIntervalMs: Double) {
        lastHeard = now
        self.pingIntervalMs = pingIntervalMs
    }

    /// When `timerFired` has something to do next.
    var deadline: Double? {
        switch phase {
        case .closed: return nil
        case .closing(let until): return min(until, scheduled.first?.due ?? until)
        case .open:
            let ping = pingSentAt.map { $0 + pingIntervalMs } ?? lastHeard + pingIntervalMs
            return min(ping, fragments.first?.due ?? scheduled.first?.due ?? ping)
        }
    }

    /// Bytes arrived from the client.
    mutating func heard(now: Double) {
        lastHeard = now
    }

    /// Outputs handed over at `now`; those due at once are written now.
    mutating func schedule(_ outputs: [WebSocketOutput], now: Double) -> [Action] {
        guard phase != .closed else { return [] }
        for output in outputs {
            let due = now + Double(max(0, output.delayMs))
            let index = scheduled.firstIndex { $0.due > due } ?? scheduled.endIndex
            scheduled.insert((due, output.kind), at: index)
        }
        return sendDue(now: now)
    }

    /// What the client's frames ask for.
    mutating func receive(_ events: [WebSocketDecoder.Event], now: Double) -> [Action] {
        var actions: [Action] = []
        for event in events where phase != .closed {
            switch event {
            case .text(let text):
                if phase == .open { actions.append(.received(.text(text))) }
            case .binary(let bytes):
                if phase == .open { actions.append(.received(.binary(bytes))) }
            case .ping(let payload):
                actions.append(.write(WebSocketFrame.encode(.pong, payload), message: nil))
            case .pong:
                pingSentAt = nil
            case .close(let code, let reason):
                if phase == .open {
                    let echo = code.map { WebSocketFrame.close(code: $0) } ?? WebSocketFrame.encode(.close, [])
                    actions.append(.write(echo, message: nil))
                }
                actions.append(end(code: code, reason: reason, abort: false))
            }
        }
        return actions
    }

    /// The client broke the protocol: close with the decoder's code and reason, without waiting for an answer.
    /// (Only one close frame per side: none when the server's is already out, RFC 6455 5.5.1.)
    mutating func fail(_ failure: WebSocketDecoder.Failure) -> [Action] {
        guard phase != .closed else { return [] }
        var actions: [Action] = []
        if phase == .open {
            actions.append(.write(WebSocketFrame.close(code: failure.code, reason: failure.reason), message: nil))
        }
        return actions + [end(code: failure.code, reason: failure.reason, abort: false)]
    }

    /// Writes what is due, pings a quiet client, and gives up on an unanswered ping or close.
    mutating func timerFired(now: Double) -> [Action] {
        var actions = sendDue(now: now)
        switch phase {
        case .closed:
            break
        case .closing(let until):
            if now >= until {
                actions.append(end(code: nil, reason: "the client did not answer the close", abort: true))
            }
        case .open:
            if let sentAt = pingSentAt {
                if now >= sentAt + pingIntervalMs {
                    let reason = "ping unanswered for \(Int(pingIntervalMs)) ms"
                    actions.append(.write(WebSocketFrame.close(code: 1001, reason: reason), message: nil))
                    actions.append(end(code: 1001, reason: reason, abort: false))
                }
            } else if now >= lastHeard + pingIntervalMs {
                pingSentAt = now
                actions.append(.write(WebSocketFrame.encode(.ping, []), message: nil))
            }
        }
        return actions
    }

    private mutating func sendDue(now: Double) -> [Action] {
        var actions: [Action] = []
        while let next = fragments.first, next.due <= now, phase == .open {
            fragments.removeFirst()
            actions.append(.write(next.frame, message: next.message))
        }
        while fragments.isEmpty, let next = scheduled.first, next.due <= now, phase != .closed {
            scheduled.removeFirst()
            switch next.kind {
            case .text(let text):
                if phase == .open {
                    actions.append(.write(WebSocketFrame.encode(.text, Array(text.utf8)), message: .text(text)))
                }
            case .binary(let bytes):
                if phase == .open {
                    actions.append(.write(WebSocketFrame.encode(.binary, bytes), message: .binary(bytes)))
                }
            case .close(let code, let reason):
                if phase == .open {
                    actions.append(.write(WebSocketFrame.close(code: code, reason: reason), message: nil))
                    phase = .closing(until: now + pingIntervalMs)
                }
            case .ping(let payload):
                if phase == .open {
                    actions.append(.write(WebSocketFrame.encode(.ping, Array(payload.prefix(125))), message: nil))
                }
            case .fragmented(let message, let frames):
                // The first frame now, each of the others `fragmentPauseMs` after the one before, each flushed on
                // its own so that a client reads them apart.
                let all = WebSocketFrame.fragmentFrames(message, frames)
                if phase == .open, let first = all.first {
                    actions.append(.write(first, message: all.count == 1 ? message : nil))
                    fragments = all.dropFirst().enumerated().map { index, frame in
                        (now + Double(index + 1) * Self.fragmentPauseMs, frame, index == all.count - 2 ? message : nil)
                    }
                }
            case .drop:
                // What was queued before goes out; then the connection ends without a close frame.
                actions.append(end(code: nil, reason: "dropped by the server", abort: false))
            }
        }
        return actions
    }

    private mutating func end(code: UInt16?, reason: String, abort: Bool) -> Action {
        phase = .closed
        scheduled = []
        fragments = []
        return .end(code: code, reason: reason, abort: abort)
    }
}

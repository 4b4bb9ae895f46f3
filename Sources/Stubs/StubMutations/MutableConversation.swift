package import HTTPMessages

/// A WebSocket variant's script as its mutants are made of it: what the server sends when the socket opens, what it
/// answers to the client's messages (each answer by the index of its matcher, which the script keeps), and when it
/// closes or drops the connection.
package struct MutableConversation: Sendable, Equatable {
    /// A step, its answers by the index of their matcher among the script's steps.
    package typealias Step = WebSocketStep<Int>

    package var steps: [Step]

    package init(steps: [Step]) {
        self.steps = steps
    }

    /// Where each of the server's messages is, in script order: its step, and its place in a reply's list.
    var messages: [(step: Int, index: Int)] {
        var places: [(step: Int, index: Int)] = []
        for (position, step) in steps.enumerated() {
            switch step {
            case .send(let kind, _) where kind.isMessage: places.append((position, 0))
            case .reply(_, let sends, _):
                for (index, kind) in sends.enumerated() where kind.isMessage { places.append((position, index)) }
            default: break
            }
        }
        return places
    }

    /// The message at `place`.
    func message(at place: (step: Int, index: Int)) -> WebSocketOutput.Kind? {
        switch steps[place.step] {
        case .send(let kind, _): kind
        case .reply(_, let sends, _): sends[place.index]
        default: nil
        }
    }

    /// Replaces the message at `place` with `kinds` (none removes it; a reply's other messages stay).
    mutating func replace(at place: (step: Int, index: Int), with kinds: [WebSocketOutput.Kind]) {
        switch steps[place.step] {
        case .send(_, let delayMs):
            let sends = kinds.enumerated().map { Step.send($1, delayMs: $0 == 0 ? delayMs : 0) }
            steps.replaceSubrange(place.step...place.step, with: sends)
        case .reply(let matcher, var sends, let delayMs):
            sends.replaceSubrange(place.index...place.index, with: kinds)
            steps[place.step] = .reply(on: matcher, send: sends, delayMs: delayMs)
        default: break
        }
    }
}

extension WebSocketOutput.Kind {
    /// Whether it is a message (text or binary), as opposed to a close, a drop or a ping.
    var isMessage: Bool {
        switch self {
        case .text, .binary, .fragmented: true
        case .close, .drop, .ping: false
        }
    }
}

extension WebSocketStep {
    /// Whether the step closes or drops the connection.
    var endsTheSocket: Bool {
        switch self {
        case .close, .drop: true
        case .send, .reply: false
        }
    }
}

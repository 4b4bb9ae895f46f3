package import HTTPMessages

/// What a WebSocket variant does once the socket opens: its `"script"` of steps.
package struct WebSocketScript: Sendable, Equatable {
    /// A step, its answers for the client messages a `BodyMatcher` accepts.
    package typealias Step = WebSocketStep<BodyMatcher>

    package var steps: [Step]
    /// The stub's subprotocols (its request's `websocket.protocols`), one chosen from the client's list.
    package var protocols: [String]

    package init(steps: [Step], protocols: [String] = []) {
        self.steps = steps
        self.protocols = protocols
    }

    /// What goes out when the socket opens: the sends in order, each after its pause, and the close or drop at
    /// its time.
    package var opening: [WebSocketOutput] {
        var outputs: [WebSocketOutput] = []
        var at = 0
        for step in steps {
            switch step {
            case .send(let kind, let delayMs):
                at += delayMs
                outputs.append(WebSocketOutput(kind, delayMs: at))
            case .close(let code, let reason, let afterMs):
                outputs.append(WebSocketOutput(.close(code: code, reason: reason), delayMs: afterMs))
            case .drop(let afterMs):
                outputs.append(WebSocketOutput(.drop, delayMs: afterMs))
            case .reply:
                break
            }
        }
        return outputs
    }

    /// The answer to a client's message: the first `on` step that accepts it, else nothing.
    package func replies(to message: WebSocketMessage) -> [WebSocketOutput] {
        let body = RequestBody(message.bytes)
        for case .reply(let matcher, let messages, let delayMs) in steps where matcher.accepts(body) {
            return messages.map { WebSocketOutput($0, delayMs: delayMs) }
        }
        return []
    }
}

extension WebSocketMessage {
    /// The message's bytes: a text's UTF-8.
    package var bytes: [UInt8] {
        switch self {
        case .text(let text): Array(text.utf8)
        case .binary(let bytes): bytes
        }
    }

    var output: WebSocketOutput.Kind {
        switch self {
        case .text(let text): .text(text)
        case .binary(let bytes): .binary(bytes)
        }
    }
}

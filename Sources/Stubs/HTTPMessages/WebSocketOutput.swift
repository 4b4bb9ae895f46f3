/// A message on an open WebSocket.
package enum WebSocketMessage: Sendable, Equatable {
    case text(String)
    case binary([UInt8])
}

/// What the server does on an open WebSocket, now or after a pause.
package struct WebSocketOutput: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        case text(String)
        case binary([UInt8])
        /// Start the closing handshake with this code and reason.
        case close(code: UInt16, reason: String)
        /// Drop the TCP connection without a closing handshake.
        case drop
        /// A ping frame with this payload (at most 125 bytes).
        case ping([UInt8])
        /// The message in `frames` frames: the first with its opcode, the rest continuation frames, its bytes cut
        /// evenly (a text's possibly inside a UTF-8 sequence, as RFC 6455 allows); each frame is written on its own,
        /// 100 ms after the one before, and the next message waits for the last.
        case fragmented(WebSocketMessage, frames: Int)
    }

    package var kind: Kind
    /// Milliseconds to wait, from when the output was handed over.
    package var delayMs: Int

    package init(_ kind: Kind, delayMs: Int = 0) {
        self.kind = kind
        self.delayMs = delayMs
    }
}

/// One step of a WebSocket script: what the server sends when the socket opens, what it answers to a client's
/// message (the messages `Matcher` accepts), and when it closes or drops the connection.
package enum WebSocketStep<Matcher: Sendable & Equatable>: Sendable, Equatable {
    /// Send a message (or a frame: a mutant's ping, fragments or close), this long after the previous opening step.
    case send(WebSocketOutput.Kind, delayMs: Int)
    /// Answer each message the matcher accepts with these messages (or frames), this long after it arrives.
    case reply(on: Matcher, send: [WebSocketOutput.Kind], delayMs: Int)
    /// Start the closing handshake this long after the socket opened.
    case close(code: UInt16, reason: String, afterMs: Int)
    /// Drop the TCP connection this long after the socket opened.
    case drop(afterMs: Int)

    /// The same step with its answer's matcher replaced by `transform`'s (nil: no step).
    package func replacingMatcher<Other>(_ transform: (Matcher) -> Other?) -> WebSocketStep<Other>? {
        switch self {
        case .send(let kind, let delayMs): .send(kind, delayMs: delayMs)
        case .reply(let matcher, let sends, let delayMs):
            transform(matcher).map { .reply(on: $0, send: sends, delayMs: delayMs) }
        case .close(let code, let reason, let afterMs): .close(code: code, reason: reason, afterMs: afterMs)
        case .drop(let afterMs): .drop(afterMs: afterMs)
        }
    }
}

/// WebSocket close codes (RFC 6455, 7.4 and IANA's registry).
package enum WebSocketCloseCode {
    /// Whether a close frame may carry `code`: 1000-1003 and 1007-1014 (registered; 1004-1006 and 1015 never go on
    /// the wire), and 3000-4999 (libraries, frameworks and applications).
    package static func maySend(_ code: Int) -> Bool {
        (1000...1003).contains(code) || (1007...1014).contains(code) || (3000...4999).contains(code)
    }

    /// `reason` cut to at most `limit` bytes of UTF-8, on a character's boundary, so that it stays UTF-8.
    package static func reason(_ reason: String, limit: Int = 123) -> [UInt8] {
        var bytes: [UInt8] = []
        for scalar in reason.unicodeScalars {
            let encoded = Array(String(scalar).utf8)
            guard bytes.count + encoded.count <= limit else { break }
            bytes += encoded
        }
        return bytes
    }
}

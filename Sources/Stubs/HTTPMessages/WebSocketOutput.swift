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
    }

    package var kind: Kind
    /// Milliseconds to wait, from when the output was handed over.
    package var delayMs: Int

    package init(_ kind: Kind, delayMs: Int = 0) {
        self.kind = kind
        self.delayMs = delayMs
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

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

package import HTTPMessages

/// Answers an open WebSocket. The engine calls it on the loop's thread, in order: keep each call short.
package protocol WebSocketHandler: AnyObject, Sendable {
    /// The socket opened: what to send first.
    func opened(_ socket: WebSocketChannel) -> [WebSocketOutput]
    /// A message arrived: what to send back.
    func received(_ message: WebSocketMessage, on socket: WebSocketChannel) -> [WebSocketOutput]
    /// A message went out to the client (queued on its connection).
    func sent(_ message: WebSocketMessage, on socket: WebSocketChannel)
    /// The socket closed: its close code (nil when the connection ended without one) and reason.
    func closed(_ socket: WebSocketChannel, code: UInt16?, reason: String)
}

/// An open WebSocket, to send on from any thread; the loop wakes and sends. Sending after it closed does nothing.
package struct WebSocketChannel: Sendable, Hashable {
    let channel: LoopChannel
    let fd: Int32
    let connection: UInt64

    package func send(_ outputs: [WebSocketOutput]) {
        channel.post(.socket(fd: fd, connection: connection, outputs: outputs))
    }

    package static func == (lhs: WebSocketChannel, rhs: WebSocketChannel) -> Bool {
        lhs.channel === rhs.channel && lhs.fd == rhs.fd && lhs.connection == rhs.connection
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(fd)
        hasher.combine(connection)
    }
}

/// The engine's answer to a WebSocket handshake: the `101` and who handles the socket.
package struct WebSocketAccept: Sendable, Equatable {
    package var handshake: WebSocketHandshake
    package var handler: any WebSocketHandler

    package init(handshake: WebSocketHandshake, handler: any WebSocketHandler) {
        self.handshake = handshake
        self.handler = handler
    }

    package static func == (lhs: WebSocketAccept, rhs: WebSocketAccept) -> Bool {
        lhs.handshake == rhs.handshake && lhs.handler === rhs.handler
    }
}

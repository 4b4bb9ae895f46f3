package import HTTPMessages

/// The server's half of the WebSocket opening handshake (RFC 6455, 4.2): checks a client's upgrade request and
/// makes the `101 Switching Protocols` answer.
package struct WebSocketHandshake: Sendable, Equatable {
    /// `Sec-WebSocket-Accept`'s value.
    package var accept: String
    /// The subprotocol chosen from the client's `Sec-WebSocket-Protocol` list, if any matched.
    package var subprotocol: String?

    /// RFC 6455, 1.3: the GUID appended to the client's key.
    static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// `Sec-WebSocket-Accept` for a client's `Sec-WebSocket-Key`: base64 of the SHA-1 of the key and the GUID.
    package static func accept(forKey key: String) -> String {
        Base64.encode(SHA1.digest(Array((key + guid).utf8)))
    }

    /// Why an upgrade request is refused: the reason a `400` names, or a `426` for a version this server does not
    /// speak (RFC 6455, 4.2.2 and 4.4: with `Sec-WebSocket-Version: 13`).
    package struct Refusal: Error, Equatable, CustomStringConvertible {
        package var reason: String
        package var upgradeRequired = false
        package var description: String { reason }
    }

    /// Checks `request` (RFC 6455, 4.2.1) and chooses the first of the client's subprotocols that `supported` has.
    /// - Throws: `Refusal` naming the first thing wrong.
    package init(request: Request, supported: [String] = []) throws(Refusal) {
        guard request.method == "GET" else {
            throw Refusal(reason: "a WebSocket handshake is a GET, not \(request.method)")
        }
        guard request.minorVersion >= 1 else { throw Refusal(reason: "a WebSocket handshake needs HTTP/1.1") }
        guard Self.tokens(request.headers["Upgrade"]).contains("websocket") else {
            throw Refusal(reason: "Upgrade: websocket is missing")
        }
        guard Self.tokens(request.headers["Connection"]).contains("upgrade") else {
            throw Refusal(reason: "Connection: Upgrade is missing")
        }
        guard request.headers["Sec-WebSocket-Version"]?.trimmingWhitespace() == "13" else {
            throw Refusal(reason: "Sec-WebSocket-Version must be 13", upgradeRequired: true)
        }
        guard let key = request.headers["Sec-WebSocket-Key"]?.trimmingWhitespace(), Base64.decode(key)?.count == 16
        else {
            throw Refusal(reason: "Sec-WebSocket-Key must be 16 bytes in base64")
        }
        accept = Self.accept(forKey: key)
        let offered = (request.headers["Sec-WebSocket-Protocol"] ?? "").split(separator: ",").map {
            $0.trimmingWhitespace()
        }
        subprotocol = offered.first { supported.contains($0) }
    }

    /// The `101` answer's head.
    package var responseHead: [UInt8] {
        var head = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        head += "Sec-WebSocket-Accept: \(accept)\r\n"
        if let subprotocol { head += "Sec-WebSocket-Protocol: \(subprotocol)\r\n" }
        return Array((head + "\r\n").utf8)
    }

    /// A comma-separated header's tokens, lowercased.
    private static func tokens(_ value: String?) -> [String] {
        (value ?? "").split(separator: ",").map { $0.trimmingWhitespace().lowercased() }
    }
}

import Foundation

/// A WebSocket client over `RawHTTPClient` (every call `async`, every wait bounded) for testing the server's framing: it sends any frame, masked
/// or not (RFC 6455, 5.2-5.3), and reads the server's frames as they are.
package actor RawWebSocket {
    package let client: RawHTTPClient
    /// The `101` (or refusal) the handshake got.
    package private(set) var handshake: RawResponse

    /// The key RFC 6455's example uses (section 1.3); its accept is `s3pPLMBiTxaQ9kYGzzhZRbK+xOo=`.
    package nonisolated static let exampleKey = "dGhlIHNhbXBsZSBub25jZQ=="

    /// Connects and sends the opening handshake for `path`; `handshake` holds the answer.
    package init(
        port: Int, path: String, key: String = RawWebSocket.exampleKey, protocols: [String] = [],
        extraHeaders: String = "", timeout: Int = 60
    ) async throws {
        client = try await RawHTTPClient(port: port, timeout: timeout)
        var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        request += "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n"
        if !protocols.isEmpty { request += "Sec-WebSocket-Protocol: \(protocols.joined(separator: ", "))\r\n" }
        try await client.send(request + extraHeaders + "\r\n")
        handshake = try await client.readResponse(head: true)
    }

    /// One frame from the server.
    package struct Frame: Sendable, Equatable {
        package var fin: Bool
        package var opcode: UInt8
        package var payload: [UInt8]
        package var text: String { String(decoding: payload, as: UTF8.self) }
        /// A close frame's code.
        package var closeCode: UInt16? {
            opcode == 8 && payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : nil
        }
        /// A close frame's reason.
        package var closeReason: String { String(decoding: payload.dropFirst(2), as: UTF8.self) }
    }

    /// A frame's bytes: FIN, opcode, the shortest length, then the payload masked with `mask` (nil: unmasked).
    package nonisolated static func frame(
        opcode: UInt8, _ payload: [UInt8], fin: Bool = true, mask: [UInt8]? = [0x37, 0xFA, 0x21, 0x3D]
    ) -> [UInt8] {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        let maskBit: UInt8 = mask == nil ? 0 : 0x80
        switch payload.count {
        case 0...125: bytes.append(maskBit | UInt8(payload.count))
        case 126...0xFFFF: bytes += [maskBit | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default:
            bytes.append(maskBit | 127)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8((payload.count >> shift) & 0xFF)) }
        }
        guard let mask else { return bytes + payload }
        return bytes + mask + payload.enumerated().map { $1 ^ mask[$0 & 3] }
    }

    /// Sends a masked text message.
    package func send(text: String) async throws {
        try await client.send(Self.frame(opcode: 1, Array(text.utf8)))
    }

    /// Sends raw bytes: a frame made with `frame(...)`, or anything else.
    package func send(_ bytes: [UInt8]) async throws {
        try await client.send(bytes)
    }

    /// Reads the server's next frame.
    package func readFrame() async throws -> Frame {
        let head = try await client.readExactly(2)
        var length = Int(head[1] & 0x7F)
        if length == 126 {
            let bytes = try await client.readExactly(2)
            length = Int(bytes[0]) << 8 | Int(bytes[1])
        } else if length == 127 {
            length = try await client.readExactly(8).reduce(0) { $0 << 8 | Int($1) }
        }
        guard head[1] & 0x80 == 0 else { throw RawHTTPClient.ClientError.malformed("a server frame was masked") }
        return Frame(fin: head[0] & 0x80 != 0, opcode: head[0] & 0x0F, payload: try await client.readExactly(length))
    }

    /// Reads frames until a text frame, answering nothing; returns its text.
    package func readText() async throws -> String {
        while true {
            let frame = try await readFrame()
            if frame.opcode == 1 { return frame.text }
            if frame.opcode == 8 {
                throw RawHTTPClient.ClientError.closedEarly(received: "close \(frame.closeCode ?? 0)")
            }
        }
    }
}

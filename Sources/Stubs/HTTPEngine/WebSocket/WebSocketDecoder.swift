import HTTPMessages

/// Reads a client's WebSocket frames (RFC 6455, 5) into messages and control frames, incrementally: bytes may
/// arrive split anywhere, and the events are the same however they are split.
///
/// What breaks the protocol ends the connection with a close code: 1002 (an unmasked client frame, reserved
/// bits, an unknown opcode, a fragmented or oversized control frame, a continuation out of place, a length not in
/// its shortest form), 1007 (text that is not UTF-8) and 1009 (a message over `maxMessageBytes`).
package struct WebSocketDecoder {
    /// What the client sent.
    package enum Event: Equatable, Sendable {
        case text(String)
        case binary([UInt8])
        case ping([UInt8])
        case pong([UInt8])
        /// A close frame: its code (nil when it carries none) and reason.
        case close(code: UInt16?, reason: String)
    }

    /// Why the connection must close: the code to send and a reason for the close frame and the log.
    package struct Failure: Error, Equatable, Sendable {
        package var code: UInt16
        package var reason: String
    }

    package let maxMessageBytes: Int
    private var buffer: [UInt8] = []
    private var start = 0
    /// The opcode and bytes of a fragmented message under way.
    private var fragmented: (opcode: WebSocketFrame.Opcode, bytes: [UInt8])?

    package init(maxMessageBytes: Int = 1 << 20) {
        self.maxMessageBytes = maxMessageBytes
    }

    /// Why the connection must close, once a frame broke the protocol; the decoder reads nothing after it.
    package private(set) var failure: Failure?

    /// The events the bytes complete, in order, up to the first violation (then `failure` says what it was).
    package mutating func feed(_ bytes: some Collection<UInt8>) -> [Event] {
        guard failure == nil else { return [] }
        buffer.append(contentsOf: bytes)
        var events: [Event] = []
        do {
            while let event = try nextFrame() {
                if let event { events.append(event) }
            }
        } catch {
            failure = error
            buffer = []
            start = 0
            return events
        }
        if start > 4096, start * 2 > buffer.count {
            buffer.removeFirst(start)
            start = 0
        }
        return events
    }

    /// The next complete frame's event (`.some(nil)` for a frame that completes nothing yet); nil when the
    /// buffer holds no complete frame.
    private mutating func nextFrame() throws(Failure) -> Event?? {
        let available = buffer.count - start
        guard available >= 2 else { return nil }
        let first = buffer[start]
        let second = buffer[start + 1]
        guard first & 0x70 == 0 else { throw Failure(code: 1002, reason: "reserved bits set (no extension agreed)") }
        guard let opcode = WebSocketFrame.Opcode(rawValue: first & 0x0F) else {
            throw Failure(code: 1002, reason: "unknown opcode \(first & 0x0F)")
        }
        let fin = first & 0x80 != 0
        guard second & 0x80 != 0 else { throw Failure(code: 1002, reason: "a client frame must be masked") }
        var headerLength = 2
        var length = UInt64(second & 0x7F)
        if length == 126 {
            guard available >= 4 else { return nil }
            length = UInt64(buffer[start + 2]) << 8 | UInt64(buffer[start + 3])
            headerLength = 4
            guard length >= 126 else { throw Failure(code: 1002, reason: "a length not in its shortest form") }
        } else if length == 127 {
            guard available >= 10 else { return nil }
            length = (0..<8).reduce(0) { $0 << 8 | UInt64(buffer[start + 2 + $1]) }
            headerLength = 10
            guard length >> 63 == 0 else { throw Failure(code: 1002, reason: "a length with its top bit set") }
            guard length > 0xFFFF else { throw Failure(code: 1002, reason: "a length not in its shortest form") }
        }
        if opcode.isControl {
            guard fin else { throw Failure(code: 1002, reason: "a fragmented control frame") }
            guard length <= 125 else { throw Failure(code: 1002, reason: "a control frame over 125 bytes") }
        } else {
            let sofar = UInt64(fragmented?.bytes.count ?? 0)
            guard length <= UInt64(maxMessageBytes) && sofar + length <= UInt64(maxMessageBytes) else {
                throw Failure(code: 1009, reason: "a message over \(maxMessageBytes) bytes")
            }
            if opcode == .continuation, fragmented == nil {
                throw Failure(code: 1002, reason: "a continuation frame with no message to continue")
            }
            if opcode != .continuation, fragmented != nil {
                throw Failure(code: 1002, reason: "a new message before the fragmented one ended")
            }
        }
        let total = headerLength + 4 + Int(length)
        guard available >= total else { return nil }
        let maskAt = start + headerLength
        let mask = [buffer[maskAt], buffer[maskAt + 1], buffer[maskAt + 2], buffer[maskAt + 3]]
        var payload = Array(buffer[(maskAt + 4)..<(start + total)])
        for index in payload.indices { payload[index] ^= mask[index & 3] }
        start += total
        return .some(try event(opcode, fin: fin, payload: payload))
    }

    private mutating func event(_ opcode: WebSocketFrame.Opcode, fin: Bool, payload: [UInt8]) throws(Failure) -> Event?
    {
        switch opcode {
        case .ping: return .ping(payload)
        case .pong: return .pong(payload)
        case .close: return try Self.close(payload)
        case .continuation:
            fragmented!.bytes += payload
            guard fin else { return nil }
            let message = fragmented!
            fragmented = nil
            return try Self.message(message.opcode, message.bytes)
        case .text, .binary:
            guard fin else {
                fragmented = (opcode, payload)
                return nil
            }
            return try Self.message(opcode, payload)
        }
    }

    private static func message(_ opcode: WebSocketFrame.Opcode, _ bytes: [UInt8]) throws(Failure) -> Event {
        guard opcode == .text else { return .binary(bytes) }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw Failure(code: 1007, reason: "a text message that is not UTF-8")
        }
        return .text(text)
    }

    /// A close frame's code and reason (RFC 6455, 5.5.1 and 7.4): no body, or a valid code then UTF-8.
    private static func close(_ payload: [UInt8]) throws(Failure) -> Event {
        guard !payload.isEmpty else { return .close(code: nil, reason: "") }
        guard payload.count >= 2 else { throw Failure(code: 1002, reason: "a close frame with a 1-byte body") }
        let code = UInt16(payload[0]) << 8 | UInt16(payload[1])
        guard WebSocketCloseCode.maySend(Int(code)) else {
            throw Failure(code: 1002, reason: "close code \(code) may not be sent")
        }
        guard let reason = String(validating: payload[2...], as: UTF8.self) else {
            throw Failure(code: 1007, reason: "a close reason that is not UTF-8")
        }
        return .close(code: code, reason: reason)
    }
}

package import HTTPMessages

/// WebSocket framing (RFC 6455, 5): opcodes, and frames as the server writes them (never masked).
package enum WebSocketFrame {
    package enum Opcode: UInt8, Sendable {
        case continuation = 0x0
        case text = 0x1
        case binary = 0x2
        case close = 0x8
        case ping = 0x9
        case pong = 0xA

        /// Close, ping and pong: at most 125 bytes, never fragmented.
        var isControl: Bool { rawValue & 0x8 != 0 }
    }

    /// One unmasked frame: FIN, the opcode, the shortest length encoding, the payload.
    package static func encode(_ opcode: Opcode, _ payload: [UInt8], fin: Bool = true) -> [UInt8] {
        var frame: [UInt8] = [(fin ? 0x80 : 0) | opcode.rawValue]
        switch payload.count {
        case 0...125:
            frame.append(UInt8(payload.count))
        case 126...0xFFFF:
            frame += [126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default:
            frame.append(127)
            for shift in stride(from: 56, through: 0, by: -8) {
                frame.append(UInt8(truncatingIfNeeded: UInt64(payload.count) >> UInt64(shift)))
            }
        }
        return frame + payload
    }

    /// `message` in `count` frames (at least one, at most one a byte): the first with the message's opcode, the
    /// rest continuation frames, the last with FIN; the bytes cut evenly.
    package static func fragments(_ message: WebSocketMessage, _ count: Int) -> [UInt8] {
        fragmentFrames(message, count).flatMap { $0 }
    }

    /// The frames of `fragments(_:_:)`, each on its own.
    static func fragmentFrames(_ message: WebSocketMessage, _ count: Int) -> [[UInt8]] {
        let (opcode, bytes): (Opcode, [UInt8]) =
            switch message {
            case .text(let text): (.text, Array(text.utf8))
            case .binary(let bytes): (.binary, bytes)
            }
        let count = max(1, min(count, bytes.count))
        return (0..<count).map { index in
            let piece = Array(bytes[(index * bytes.count / count)..<((index + 1) * bytes.count / count)])
            return encode(index == 0 ? opcode : .continuation, piece, fin: index == count - 1)
        }
    }

    /// A close frame: the code, then a reason cut to fit the 125-byte limit of control frames.
    package static func close(code: UInt16, reason: String = "") -> [UInt8] {
        encode(.close, [UInt8(code >> 8), UInt8(code & 0xFF)] + WebSocketCloseCode.reason(reason))
    }
}

/// Base64 (RFC 4648, section 4: the standard alphabet, `=` padding), for the WebSocket handshake and binary messages
/// in fixtures; the engine imports no Foundation.
package enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    package static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let remaining = bytes.count - index
            let b0 = UInt32(bytes[index])
            let b1 = remaining > 1 ? UInt32(bytes[index + 1]) : 0
            let b2 = remaining > 2 ? UInt32(bytes[index + 2]) : 0
            let group = b0 << 16 | b1 << 8 | b2
            output.append(alphabet[Int(group >> 18 & 0x3F)])
            output.append(alphabet[Int(group >> 12 & 0x3F)])
            output.append(remaining > 1 ? alphabet[Int(group >> 6 & 0x3F)] : UInt8(ascii: "="))
            output.append(remaining > 2 ? alphabet[Int(group & 0x3F)] : UInt8(ascii: "="))
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes `text` encodes; nil when it is not canonical base64 (wrong length, a character outside the
    /// alphabet, padding anywhere but the end).
    package static func decode(_ text: String) -> [UInt8]? {
        let characters = Array(text.utf8)
        guard characters.count % 4 == 0 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(characters.count / 4 * 3)
        for start in stride(from: 0, to: characters.count, by: 4) {
            var group: UInt32 = 0
            var padding = 0
            for offset in 0..<4 {
                let character = characters[start + offset]
                let value: UInt32
                if character == UInt8(ascii: "=") {
                    guard start + 4 == characters.count, offset >= 2 else { return nil }
                    padding += 1
                    value = 0
                } else {
                    guard padding == 0, let position = alphabet.firstIndex(of: character) else { return nil }
                    value = UInt32(position)
                }
                group = group << 6 | value
            }
            output.append(UInt8(group >> 16 & 0xFF))
            if padding < 2 { output.append(UInt8(group >> 8 & 0xFF)) }
            if padding < 1 { output.append(UInt8(group & 0xFF)) }
        }
        return output
    }
}

/// `text` as the content of a JSON string: quotes, backslashes, control characters and U+FEFF escaped.
package func jsonEscaped(_ text: String) -> String {
    let needsEscaping = text.utf8.contains { byte in
        // 0xEF may open U+FEFF (EF BB BF); a false start costs only the slow path below.
        byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0xEF
    }
    guard needsEscaping else { return text }
    var escaped = ""
    escaped.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": escaped += "\\\""
        case "\\": escaped += "\\\\"
        case "\n": escaped += "\\n"
        case "\r": escaped += "\\r"
        case "\t": escaped += "\\t"
        // U+FEFF escaped: Foundation's JSONSerialization on Linux drops it raw inside a string (JSONDecoder keeps
        // it), so a value holding it would not read back; escaped, every reader gets it.
        case "\u{0}"..."\u{1F}", "\u{7F}", "\u{FEFF}":
            let hex = String(scalar.value, radix: 16)
            escaped += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: escaped.unicodeScalars.append(scalar)
        }
    }
    return escaped
}

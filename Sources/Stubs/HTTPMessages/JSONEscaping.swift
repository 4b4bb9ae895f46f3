/// `text` as the content of a JSON string: quotes, backslashes and control characters escaped.
package func jsonEscaped(_ text: String) -> String {
    let needsEscaping = text.utf8.contains { byte in
        byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
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
        case "\u{0}"..."\u{1F}", "\u{7F}":
            let hex = String(scalar.value, radix: 16)
            escaped += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: escaped.unicodeScalars.append(scalar)
        }
    }
    return escaped
}

/// A line of a `text/event-stream` block read as the HTML Living Standard reads it (9.2.6): a field's name and
/// value, split at the first colon, less one leading space.
package enum EventStreamField {
    /// `line`'s field name and value. Read by bytes, as the standard reads streams: a colon or space followed by a
    /// combining mark is still a colon or a space. A line without a colon is a field with an empty value.
    package static func parse(_ line: String) -> (name: String, value: String) {
        let bytes = Array(line.utf8)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return (line, "") }
        var start = colon + 1
        if start < bytes.count, bytes[start] == UInt8(ascii: " ") { start += 1 }
        return (String(decoding: bytes[..<colon], as: UTF8.self), String(decoding: bytes[start...], as: UTF8.self))
    }

    /// Whether `line` is a comment (starts with a colon), which a client ignores.
    package static func isComment(_ line: String) -> Bool {
        line.utf8.first == UInt8(ascii: ":")
    }
}

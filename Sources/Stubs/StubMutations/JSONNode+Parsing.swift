extension JSONNode {
    /// Deepest nesting read; a deeper document is not mutated value by value (its whole-answer mutants remain).
    static let maxDepth = 256

    /// Reads one JSON text (RFC 8259; a UTF-8 byte-order mark and surrounding whitespace allowed), or nil when the
    /// bytes are not one, or nest deeper than `maxDepth`.
    init?(parsing bytes: [UInt8]) {
        var reader = Reader(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.index = 3 }
        reader.skipSpace()
        guard let value = reader.value(depth: 0) else { return nil }
        reader.skipSpace()
        guard reader.index == bytes.count else { return nil }
        self = value
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        mutating func skipSpace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        mutating func value(depth: Int) -> JSONNode? {
            guard depth < JSONNode.maxDepth, index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "{"): return object(depth: depth)
            case UInt8(ascii: "["): return array(depth: depth)
            case UInt8(ascii: "\""): return string().map(JSONNode.string)
            case UInt8(ascii: "t"): return word("true", .bool(true))
            case UInt8(ascii: "f"): return word("false", .bool(false))
            case UInt8(ascii: "n"): return word("null", .null)
            default: return number()
            }
        }

        private mutating func word(_ text: String, _ node: JSONNode) -> JSONNode? {
            let expected = Array(text.utf8)
            guard bytes[index...].starts(with: expected) else { return nil }
            index += expected.count
            return node
        }

        private mutating func object(depth: Int) -> JSONNode? {
            index += 1
            var fields: [(key: String, value: JSONNode)] = []
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(fields)
            }
            while true {
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = string() else { return nil }
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                index += 1
                skipSpace()
                guard let value = value(depth: depth + 1) else { return nil }
                fields.append((key, value))
                skipSpace()
                guard index < bytes.count else { return nil }
                if bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return .object(fields)
                }
                guard bytes[index] == UInt8(ascii: ",") else { return nil }
                index += 1
            }
        }

        private mutating func array(depth: Int) -> JSONNode? {
            index += 1
            var items: [JSONNode] = []
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(items)
            }
            while true {
                skipSpace()
                guard let item = value(depth: depth + 1) else { return nil }
                items.append(item)
                skipSpace()
                guard index < bytes.count else { return nil }
                if bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return .array(items)
                }
                guard bytes[index] == UInt8(ascii: ",") else { return nil }
                index += 1
            }
        }

        /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, kept as text.
        private mutating func number() -> JSONNode? {
            let start = index
            func digits() -> Int {
                let from = index
                while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                    index += 1
                }
                return index - from
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
            } else if digits() == 0 {
                return nil
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard digits() > 0 else { return nil }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                    index += 1
                }
                guard digits() > 0 else { return nil }
            }
            return .number(String(decoding: bytes[start..<index], as: UTF8.self))
        }

        /// A string from its opening quote, escapes decoded; nil for a control character, a bad escape, a lone
        /// surrogate or bytes that are not UTF-8.
        private mutating func string() -> String? {
            index += 1
            let start = index
            // Without escapes, the bytes as they are; with them, the text so far in `text`, UTF-8.
            var text: [UInt8]?
            var run = index
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    defer { index += 1 }
                    guard var escaped = text else { return String(validating: bytes[start..<index], as: UTF8.self) }
                    escaped.append(contentsOf: bytes[run..<index])
                    return String(validating: escaped, as: UTF8.self)
                }
                if byte < 0x20 { return nil }
                if byte != UInt8(ascii: "\\") {
                    index += 1
                    continue
                }
                guard index + 1 < bytes.count else { return nil }
                var escaped = text ?? []
                escaped.append(contentsOf: bytes[run..<index])
                let escape = bytes[index + 1]
                index += 2
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): escaped.append(escape)
                case UInt8(ascii: "b"): escaped.append(0x08)
                case UInt8(ascii: "f"): escaped.append(0x0C)
                case UInt8(ascii: "n"): escaped.append(0x0A)
                case UInt8(ascii: "r"): escaped.append(0x0D)
                case UInt8(ascii: "t"): escaped.append(0x09)
                case UInt8(ascii: "u"):
                    guard let high = hex4() else { return nil }
                    let scalar: Unicode.Scalar?
                    if (0xD800..<0xDC00).contains(high) {
                        guard bytes[index...].starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "u")]) else { return nil }
                        index += 2
                        guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                        scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
                    } else {
                        scalar = Unicode.Scalar(high)
                    }
                    guard let scalar else { return nil }
                    escaped.append(contentsOf: String(Character(scalar)).utf8)
                default: return nil
                }
                text = escaped
                run = index
            }
            return nil
        }

        private mutating func hex4() -> UInt32? {
            guard index + 4 <= bytes.count else { return nil }
            var value: UInt32 = 0
            for byte in bytes[index..<index + 4] {
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: return nil
                }
                value = value << 4 | UInt32(digit)
            }
            index += 4
            return value
        }
    }
}

import HTTPMessages

/// Any JSON value, decoded without a schema: fixture files checked field by field, request bodies matched.
package enum JSONValue: Sendable, Decodable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    package init(from decoder: any Decoder) throws {
        // Each failed try throws: strings, the commonest leaf, are tried first (a fixture costs a third of the
        // throws it did; every throw is expensive under a test runner that captures its backtrace).
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// A short name of the value's type for messages, such as `a number`.
    package var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// Compact JSON text with object keys sorted: `{"id":7,"tags":["a"]}`. Whole numbers print without a fraction.
    package var jsonText: String {
        var text = ""
        write(to: &text)
        return text
    }

    /// The key path of `key` under `path`: `path.key` for a plain key (letters, digits, `_`, `-`), else
    /// `path["key"]`, so that an empty key or one holding dots or brackets still reads unambiguously.
    package static func keyPath(_ path: String, _ key: String) -> String {
        let plain =
            !key.isEmpty
            && key.utf8.allSatisfy { byte in
                switch byte {
                case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "_"), UInt8(ascii: "-"): true
                default: false
                }
            }
        if plain { return path.isEmpty ? key : "\(path).\(key)" }
        return "\(path)[\(key.debugDescription)]"
    }

    /// The value as a matcher compares it: a string's own text, anything else its JSON text.
    package var matchText: String {
        if case .string(let text) = self { return text }
        return jsonText
    }

    /// The value for messages: strings quoted, anything else as JSON.
    package var messageText: String {
        if case .string(let text) = self { return text.debugDescription }
        return jsonText
    }

    private func write(to text: inout String) {
        switch self {
        case .null: text += "null"
        case .bool(let flag): text += flag ? "true" : "false"
        case .number(let number):
            if number.rounded() == number, abs(number) < 9.0e15 {
                text += String(Int64(number))
            } else {
                text += "\(number)"
            }
        case .string(let string): text += "\"" + jsonEscaped(string) + "\""
        case .array(let items):
            text += "["
            for (index, item) in items.enumerated() {
                if index > 0 { text += "," }
                item.write(to: &text)
            }
            text += "]"
        case .object(let fields):
            text += "{"
            for (index, key) in fields.keys.sorted().enumerated() {
                if index > 0 { text += "," }
                text += "\"" + jsonEscaped(key) + "\":"
                fields[key]!.write(to: &text)
            }
            text += "}"
        }
    }
}

/// A JSON document as mutations need it: keys in the order the document gives them (so mutants come in the
/// document's order) and numbers as their text (so `9007199254740993` survives, which a `Double` cannot hold).
indirect enum JSONNode: Equatable, Sendable {
    case null
    case bool(Bool)
    /// The number's text as written: `-1`, `2.5e3`.
    case number(String)
    case string(String)
    case array([JSONNode])
    case object([(key: String, value: JSONNode)])

    /// The same document, text compared byte for byte: `String`'s `==` calls canonically equivalent text equal
    /// (`é` and `e` with a combining accent), which a client's bytes are not.
    static func == (lhs: JSONNode, rhs: JSONNode) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a.utf8.elementsEqual(b.utf8)
        case (.string(let a), .string(let b)): a.utf8.elementsEqual(b.utf8)
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)):
            a.count == b.count
                && zip(a, b).allSatisfy { $0.key.utf8.elementsEqual($1.key.utf8) && $0.value == $1.value }
        default: false
        }
    }

    /// The node's JSON type, as mutation IDs name it.
    var kind: Kind {
        switch self {
        case .null: .null
        case .bool: .bool
        case .number: .number
        case .string: .string
        case .array: .array
        case .object: .object
        }
    }

    enum Kind: String, CaseIterable, Sendable {
        case string, number, bool, array, object, null
    }

    /// Compact JSON, keys in their order, strings escaped as RFC 8259 requires.
    var serialized: [UInt8] {
        var out: [UInt8] = []
        write(to: &out)
        return out
    }

    private func write(to out: inout [UInt8]) {
        switch self {
        case .null: out += Array("null".utf8)
        case .bool(let flag): out += Array((flag ? "true" : "false").utf8)
        case .number(let text): out += Array(text.utf8)
        case .string(let text): Self.writeString(text, to: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                item.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let fields):
            out.append(UInt8(ascii: "{"))
            for (index, field) in fields.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeString(field.key, to: &out)
                out.append(UInt8(ascii: ":"))
                field.value.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func writeString(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { utf8 in
            out.append(UInt8(ascii: "\""))
            if utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
                writeEscaped(utf8, to: &out)
            } else {
                out.append(contentsOf: utf8)
            }
            out.append(UInt8(ascii: "\""))
        }
    }

    private static func writeEscaped(_ utf8: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0..<0x20:
                let hex = { (digit: UInt8) in digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10 }
                out += [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")]
                out += [hex(byte >> 4), hex(byte & 0xF)]
            default: out.append(byte)
            }
        }
    }
}

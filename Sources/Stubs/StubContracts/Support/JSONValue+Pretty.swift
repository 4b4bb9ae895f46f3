import HTTPMessages
import JSONModel
import StubCore

extension JSONValue {
    /// JSON text as fixture files are written: two-space indentation, object keys sorted, whole numbers without a
    /// fraction, no trailing newline.
    var prettyText: String {
        var text = ""
        writePretty(to: &text, indent: "")
        return text
    }

    private func writePretty(to text: inout String, indent: String) {
        let inner = indent + "  "
        switch self {
        case .array(let items) where !items.isEmpty:
            text += "[\n"
            for (index, item) in items.enumerated() {
                text += inner
                item.writePretty(to: &text, indent: inner)
                text += index < items.count - 1 ? ",\n" : "\n"
            }
            text += indent + "]"
        case .object(let fields) where !fields.isEmpty:
            text += "{\n"
            for (index, key) in fields.keys.sorted().enumerated() {
                text += inner + "\"" + jsonEscaped(key) + "\": "
                fields[key]!.writePretty(to: &text, indent: inner)
                text += index < fields.count - 1 ? ",\n" : "\n"
            }
            text += indent + "}"
        default:
            text += jsonText
        }
    }
}

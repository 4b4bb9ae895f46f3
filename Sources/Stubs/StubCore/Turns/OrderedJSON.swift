import JSONModel

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// JSON written with its keys in the order given, as providers document their objects (`type` first).
package indirect enum OrderedJSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([OrderedJSON])
    case object([(String, OrderedJSON)])

    package static func == (lhs: OrderedJSON, rhs: OrderedJSON) -> Bool { lhs.text == rhs.text }

    /// Compact JSON text.
    package var text: String {
        var text = ""
        write(to: &text)
        return text
    }

    /// A JSON object parsed from `json`, itself JSON text (a tool call's arguments), or a string of it when it is not.
    package static func parsed(_ json: String) -> OrderedJSON {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(json.utf8)) else { return .string(json) }
        return OrderedJSON(value)
    }

    init(_ value: JSONValue) {
        switch value {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .number(let number):
            self = number.rounded() == number && abs(number) < 9.0e15 ? .int(Int(number)) : .double(number)
        case .string(let text): self = .string(text)
        case .array(let items): self = .array(items.map(OrderedJSON.init))
        case .object(let fields): self = .object(fields.keys.sorted().map { ($0, OrderedJSON(fields[$0]!)) })
        }
    }

    private func write(to text: inout String) {
        switch self {
        case .null: text += "null"
        case .bool(let flag): text += flag ? "true" : "false"
        case .int(let number): text += String(number)
        case .double(let number): text += JSONValue.number(number).jsonText
        case .string(let string): text += JSONValue.string(string).jsonText
        case .array(let items):
            text += "["
            for (index, item) in items.enumerated() {
                if index > 0 { text += "," }
                item.write(to: &text)
            }
            text += "]"
        case .object(let fields):
            text += "{"
            for (index, (key, value)) in fields.enumerated() {
                if index > 0 { text += "," }
                text += JSONValue.string(key).jsonText + ":"
                value.write(to: &text)
            }
            text += "}"
        }
    }
}

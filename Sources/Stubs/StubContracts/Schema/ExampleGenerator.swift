import JSONModel
import StubCore

/// A value made from a schema, for an operation whose documented answer has no example: the schema's own
/// `example` (or `examples`, `default`, `const`) where it has one, at every level; else required properties only,
/// an enum's first value, formats honoured, bounds respected, one item per array (or `minItems`).
struct ExampleGenerator {
    let document: OpenAPIDocument
    /// Deeper than this, a value is `null`: a recursive schema ends.
    static let maxDepth = 12
    /// Most values made for one example, each array item counted: nested `minItems` cannot multiply without end.
    private var budget = 10_000

    init(document: OpenAPIDocument) {
        self.document = document
    }

    /// - Parameter placeholders: whether a required name with no property schema gets its own name as a value;
    ///   not inside `allOf`, where another part may define it (placeholders fill what no part did).
    mutating func value(for node: OpenAPIDocument.Node, depth: Int = 0, placeholders: Bool = true) -> JSONValue {
        budget -= 1
        guard budget > 0, depth < Self.maxDepth, let schema = try? document.resolve(node),
            case .object(let fields) = schema.value
        else { return .null }
        if let example = fields["example"] { return example }
        if case .array(let examples)? = fields["examples"], let first = examples.first { return first }
        if let value = fields["default"] ?? fields["const"] { return value }
        if case .array(let options)? = fields["enum"],
            let first = options.first(where: { $0 != .null }) ?? options.first
        {
            return first
        }
        if let parts = schema["allOf"]?.items, !parts.isEmpty {
            var merged: [String: JSONValue] = [:]
            var last = JSONValue.null
            var required: [String] = []
            for part in parts {
                let value = value(for: part, depth: depth + 1, placeholders: false)
                if case .object(let members) = value { merged.merge(members) { _, new in new } } else { last = value }
                let resolved = try? document.resolve(part)
                required += resolved?["required"]?.items.compactMap(\.string) ?? []
            }
            let own = generate(schema, fields, depth: depth, placeholders: false)
            if case .object(let members) = own { merged.merge(members) { _, new in new } }
            required += schema["required"]?.items.compactMap(\.string) ?? []
            if merged.isEmpty && parts.count == 1 && required.isEmpty { return last }
            for name in required where merged[name] == nil && placeholders { merged[name] = .string(name) }
            return .object(merged)
        }
        if let option = (schema["oneOf"] ?? schema["anyOf"])?.items.first {
            var chosen = value(for: option, depth: depth + 1)
            // With a discriminator, the property names the option chosen: its mapping key, else its schema's name.
            if let property = schema["discriminator"]?["propertyName"]?.string, case .object(var members) = chosen,
                let reference = option["$ref"]?.string
            {
                let mapped = schema["discriminator"]?["mapping"]?.members.first { $0.node.string == reference }?.key
                members[property] = .string(mapped ?? String(reference.split(separator: "/").last ?? ""))
                chosen = .object(members)
            }
            return chosen
        }
        return generate(schema, fields, depth: depth, placeholders: placeholders)
    }

    /// A bound from a schema as a count, clamped to `0...limit` (a hostile document may say `-1` or `1e19`).
    private static func count(_ value: JSONValue?, limit: Int) -> Int? {
        guard case .number(let number)? = value, number.isFinite else { return nil }
        return Int(min(max(number, 0), Double(limit)))
    }

    private mutating func generate(
        _ schema: OpenAPIDocument.Node, _ fields: [String: JSONValue], depth: Int, placeholders: Bool
    ) -> JSONValue {
        switch Self.type(of: fields) {
        case "object":
            var members: [String: JSONValue] = [:]
            for required in schema["required"]?.items ?? [] {
                guard let name = required.string else { continue }
                if let property = schema["properties"]?[name] {
                    members[name] = value(for: property, depth: depth + 1)
                } else if placeholders {
                    members[name] = .string(name)
                }
            }
            return .object(members)
        case "array":
            var count = max(1, Self.count(fields["minItems"], limit: 100) ?? 1)
            if let maximum = Self.count(fields["maxItems"], limit: 100) { count = min(count, maximum) }
            let before = budget
            let item = schema["items"].map { value(for: $0, depth: depth + 1) } ?? .string("item")
            let used = max(before - budget, 1)
            let copies = max(1, min(count, 100, budget / used + 1))
            budget -= used * (copies - 1)
            return .array(Array(repeating: item, count: copies))
        case "integer", "number":
            var number = 0.0
            if case .number(let minimum)? = fields["minimum"] { number = minimum }
            if fields["exclusiveMinimum"] == .bool(true) { number += 1 }
            if case .number(let bound)? = fields["exclusiveMinimum"] { number = bound + 1 }
            if case .number(let maximum)? = fields["maximum"], number > maximum { number = maximum }
            if case .number(let bound)? = fields["exclusiveMaximum"], number >= bound { number = bound - 1 }
            if fields["exclusiveMaximum"] == .bool(true), case .number(let maximum)? = fields["maximum"],
                number >= maximum
            {
                number = maximum - 1
            }
            if case .number(let divisor)? = fields["multipleOf"], divisor > 0 {
                number = (number / divisor).rounded(.up) * divisor
            }
            return .number(Self.type(of: fields) == "integer" ? number.rounded(.up) : number)
        case "boolean": return .bool(true)
        case "null": return .null
        default:
            var text = "string"
            if case .string(let format)? = fields["format"], let sample = StringFormat.sample(format) { text = sample }
            if case .string(let pattern)? = fields["pattern"], let sample = PatternSample.sample(pattern) {
                return .string(sample)
            }
            if let minimum = Self.count(fields["minLength"], limit: 10_000) {
                while text.count < minimum { text += text }
            }
            if let maximum = Self.count(fields["maxLength"], limit: 10_000), text.count > maximum {
                text = String(text.prefix(maximum))
            }
            return .string(text)
        }
    }

    /// The schema's type (the first that is not `null` of 3.1's list); else what its keywords imply.
    static func type(of fields: [String: JSONValue]) -> String {
        switch fields["type"] {
        case .string(let name)?: return name
        case .array(let names)?:
            let first = names.first { $0 != .string("null") } ?? names.first
            if case .string(let name)? = first { return name }
        default: break
        }
        if fields["properties"] != nil || fields["required"] != nil || fields["additionalProperties"] != nil {
            return "object"
        }
        if fields["items"] != nil || fields["prefixItems"] != nil { return "array" }
        return "string"
    }
}

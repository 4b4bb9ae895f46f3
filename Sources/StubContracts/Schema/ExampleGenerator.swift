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

    mutating func value(for node: OpenAPIDocument.Node, depth: Int = 0) -> JSONValue {
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
            for part in parts {
                let value = value(for: part, depth: depth + 1)
                if case .object(let members) = value { merged.merge(members) { _, new in new } } else { last = value }
            }
            let own = generate(schema, fields, depth: depth)
            if case .object(let members) = own { merged.merge(members) { _, new in new } }
            return merged.isEmpty && parts.count == 1 ? last : .object(merged)
        }
        if let option = (schema["oneOf"] ?? schema["anyOf"])?.items.first {
            return value(for: option, depth: depth + 1)
        }
        return generate(schema, fields, depth: depth)
    }

    private mutating func generate(_ schema: OpenAPIDocument.Node, _ fields: [String: JSONValue], depth: Int)
        -> JSONValue
    {
        switch Self.type(of: fields) {
        case "object":
            var members: [String: JSONValue] = [:]
            for required in schema["required"]?.items ?? [] {
                guard let name = required.string else { continue }
                if let property = schema["properties"]?[name] {
                    members[name] = value(for: property, depth: depth + 1)
                } else {
                    members[name] = .string(name)
                }
            }
            return .object(members)
        case "array":
            var count = 1
            if case .number(let minimum)? = fields["minItems"] { count = max(count, Int(minimum)) }
            if case .number(let maximum)? = fields["maxItems"] { count = min(count, Int(maximum)) }
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
            if case .number(let minimum)? = fields["minLength"] {
                while text.count < Int(minimum) { text += text }
            }
            if case .number(let maximum)? = fields["maxLength"], text.count > Int(maximum) {
                text = String(text.prefix(Int(maximum)))
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

package import JSONModel
import StubCore

/// Checks JSON values against JSON Schema as OpenAPI uses it: `type` (3.1's arrays too), `nullable` (3.0), `enum`,
/// `const`, `properties`, `patternProperties`, `required` (with `readOnly`/`writeOnly` by direction),
/// `additionalProperties`, `items`, `prefixItems`, `minItems`/`maxItems`,
/// `minLength`/`maxLength`, `pattern` (the matchers' regex dialect), `minimum`/`maximum` and their exclusive forms,
/// `multipleOf`, `format` (`date-time`, `date`, `uuid`, `uri`, `email`, `int32`, `int64`), `allOf`, `anyOf`,
/// `oneOf`, `not`, `$ref` and `discriminator.propertyName`. Other keywords are ignored and counted.
package struct SchemaValidator {
    let document: OpenAPIDocument
    /// The keywords ignored, each with how many schemas use it (a format is counted as `format: NAME`).
    package private(set) var ignored: [String: Int] = [:]
    private var ignoredPlaces: Set<String> = []
    private var patterns: [String: ValueMatcher.Pattern?] = [:]

    /// Most schemas entered for one value: a `$ref` cycle that never consumes the value stops here.
    static let maxDepth = 256
    /// Most schemas entered in one check: nested `anyOf`s, each trying every branch, cannot take forever.
    package var maxSteps = 200_000
    private var steps = 0
    /// Whose value is checked: a required `readOnly` property is required in responses only, a `writeOnly` one in
    /// requests only (OpenAPI 3.0.3, Schema Object).
    package var direction: Direction

    package enum Direction: Sendable {
        case response, request
    }

    package init(document: OpenAPIDocument, direction: Direction = .response) {
        self.document = document
        self.direction = direction
    }

    /// What is wrong with `value` against `schema`, each with its key path in the value (`results[3].trackId`).
    package mutating func problems(of value: JSONValue, against schema: OpenAPIDocument.Node) -> [SchemaProblem] {
        var problems: [SchemaProblem] = []
        steps = 0
        validate(value, schema, at: "", depth: 0, into: &problems)
        if steps > maxSteps {
            problems.append(SchemaProblem("", "checked in part: the schema takes more than \(maxSteps) steps"))
        }
        return problems
    }

    /// Keywords that validate, or that annotate and change nothing.
    private static let known: Set<String> = [
        "type", "enum", "const", "properties", "patternProperties", "required", "additionalProperties", "items",
        "prefixItems",
        "minItems", "maxItems", "minLength", "maxLength", "pattern", "minimum", "maximum", "exclusiveMinimum",
        "exclusiveMaximum", "multipleOf", "format", "allOf", "anyOf", "oneOf", "not", "$ref", "discriminator",
        "title", "description", "example", "examples", "default", "readOnly", "writeOnly", "deprecated", "xml",
        "externalDocs", "$schema", "$id", "$comment", "$defs", "definitions", "contentMediaType", "contentEncoding",
    ]

    private static let formats: Set<String> = ["date-time", "date", "uuid", "uri", "email", "int32", "int64"]

    private mutating func validate(
        _ value: JSONValue, _ schemaNode: OpenAPIDocument.Node, at path: String, depth: Int,
        into problems: inout [SchemaProblem]
    ) {
        steps += 1
        guard steps <= maxSteps else { return }
        guard depth < Self.maxDepth else {
            problems.append(SchemaProblem(path, "the schema nests past \(Self.maxDepth) levels here (a $ref cycle?)"))
            return
        }
        var schema = schemaNode
        if case .bool(let allowed) = schema.value {
            if !allowed { problems.append(SchemaProblem(path, "not allowed (the schema is false)")) }
            return
        }
        guard case .object(var fields) = schema.value else { return }
        if let reference = fields["$ref"] {
            guard case .string(let text) = reference else { return }
            let target: OpenAPIDocument.Node
            do {
                target = try document.target(of: text, in: schema)
            } catch {
                problems.append(SchemaProblem(path, "the schema cannot be read: \(error)"))
                return
            }
            validate(value, target, at: path, depth: depth + 1, into: &problems)
            // 3.0 ignores a `$ref`'s siblings; 3.1 applies them too.
            guard document.version == .v31 else { return }
            fields["$ref"] = nil
            schema.value = .object(fields)
        }
        countIgnored(fields, at: schema)
        // 3.0's `nullable: true` adds null to `type`; the other keywords still apply (an `enum` must list null).
        let nullable = document.version == .v30 && fields["nullable"] == .bool(true) && value == .null
        if !nullable, let type = fields["type"], !check(type: type, value, at: path, into: &problems) { return }
        if let options = fields["enum"], case .array(let allowed) = options, !allowed.contains(value) {
            let list = allowed.prefix(8).map(\.jsonText).joined(separator: ", ")
            problems.append(
                SchemaProblem(path, "expected one of \(list)\(allowed.count > 8 ? ", ..." : ""), got \(value.jsonText)")
            )
        }
        if let constant = fields["const"], constant != value {
            problems.append(SchemaProblem(path, "expected \(constant.jsonText), got \(value.jsonText)"))
        }
        switch value {
        case .string(let text): checkString(text, fields, at: path, into: &problems)
        case .number(let number): checkNumber(number, fields, at: path, into: &problems)
        case .object(let members): checkObject(members, schema, at: path, depth: depth, into: &problems)
        case .array(let items): checkArray(items, schema, at: path, depth: depth, into: &problems)
        case .null, .bool: break
        }
        for part in schema["allOf"]?.items ?? [] {
            validate(value, part, at: path, depth: depth + 1, into: &problems)
        }
        if let chosen = discriminated(value, schema, at: path, into: &problems) {
            if let chosen { validate(value, chosen, at: path, depth: depth + 1, into: &problems) }
        } else {
            checkAlternatives(value, schema, at: path, depth: depth, into: &problems)
        }
        if let negated = schema["not"] {
            var inner: [SchemaProblem] = []
            validate(value, negated, at: path, depth: depth + 1, into: &inner)
            if inner.isEmpty { problems.append(SchemaProblem(path, "must not match the schema under \"not\"")) }
        }
    }

    // MARK: Keywords

    /// Whether `value` has one of the types `type` names (a name, or 3.1's array of names).
    private func check(type: JSONValue, _ value: JSONValue, at path: String, into problems: inout [SchemaProblem])
        -> Bool
    {
        let names: [String]
        switch type {
        case .string(let name): names = [name]
        case .array(let items): names = items.compactMap { if case .string(let name) = $0 { name } else { nil } }
        default: return true
        }
        let actual = Self.typeName(value)
        if names.contains(actual) || (actual == "integer" && names.contains("number")) { return true }
        problems.append(SchemaProblem(path, "expected \(names.joined(separator: " or ")), got \(actual)"))
        return false
    }

    /// The JSON Schema type of a value: a whole number is an `integer`.
    static func typeName(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "boolean"
        case .number(let number): number.rounded() == number && number.isFinite ? "integer" : "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    private mutating func checkString(
        _ text: String, _ fields: [String: JSONValue], at path: String, into problems: inout [SchemaProblem]
    ) {
        let length = text.unicodeScalars.count
        if case .number(let minimum)? = fields["minLength"], Double(length) < minimum {
            problems.append(
                SchemaProblem(path, "expected at least \(JSONValue.number(minimum).jsonText) characters, got \(length)")
            )
        }
        if case .number(let maximum)? = fields["maxLength"], Double(length) > maximum {
            problems.append(
                SchemaProblem(path, "expected at most \(JSONValue.number(maximum).jsonText) characters, got \(length)"))
        }
        if case .string(let source)? = fields["pattern"] {
            if patterns[source] == nil { patterns[source] = .some(try? ValueMatcher.Pattern(source)) }
            if let pattern = patterns[source]!, !pattern.matches(text) {
                problems.append(SchemaProblem(path, "\(text.debugDescription) does not match the pattern \(source)"))
            }
        }
        if case .string(let format)? = fields["format"], let problem = StringFormat.problem(text, format: format) {
            problems.append(SchemaProblem(path, problem))
        }
    }

    private func checkNumber(
        _ number: Double, _ fields: [String: JSONValue], at path: String, into problems: inout [SchemaProblem]
    ) {
        let shown = JSONValue.number(number).jsonText
        if case .number(let minimum)? = fields["minimum"] {
            if fields["exclusiveMinimum"] == .bool(true) ? number <= minimum : number < minimum {
                let relation = fields["exclusiveMinimum"] == .bool(true) ? "greater than" : "at least"
                problems.append(
                    SchemaProblem(path, "expected \(relation) \(JSONValue.number(minimum).jsonText), got \(shown)"))
            }
        }
        if case .number(let maximum)? = fields["maximum"] {
            if fields["exclusiveMaximum"] == .bool(true) ? number >= maximum : number > maximum {
                let relation = fields["exclusiveMaximum"] == .bool(true) ? "less than" : "at most"
                problems.append(
                    SchemaProblem(path, "expected \(relation) \(JSONValue.number(maximum).jsonText), got \(shown)"))
            }
        }
        if case .number(let bound)? = fields["exclusiveMinimum"], number <= bound {
            problems.append(
                SchemaProblem(path, "expected greater than \(JSONValue.number(bound).jsonText), got \(shown)"))
        }
        if case .number(let bound)? = fields["exclusiveMaximum"], number >= bound {
            problems.append(SchemaProblem(path, "expected less than \(JSONValue.number(bound).jsonText), got \(shown)"))
        }
        if case .number(let divisor)? = fields["multipleOf"], divisor > 0 {
            let quotient = number / divisor
            if abs(quotient - quotient.rounded()) > max(1e-9, 4 * quotient.ulp) {
                problems.append(
                    SchemaProblem(path, "expected a multiple of \(JSONValue.number(divisor).jsonText), got \(shown)"))
            }
        }
        if case .string(let format)? = fields["format"] {
            // 2^63 as a Double is the first value past int64's range, so that bound is open.
            let range: Range<Double>? =
                switch format {
                case "int32": -2_147_483_648..<2_147_483_648
                case "int64": -9_223_372_036_854_775_808..<9_223_372_036_854_775_808
                default: nil
                }
            if let range, !(range.contains(number) && number.rounded() == number) {
                problems.append(SchemaProblem(path, "expected an \(format), got \(shown)"))
            }
        }
    }

    private mutating func checkObject(
        _ members: [String: JSONValue], _ schema: OpenAPIDocument.Node, at path: String, depth: Int,
        into problems: inout [SchemaProblem]
    ) {
        let properties = schema["properties"]
        for required in schema["required"]?.items ?? [] {
            guard let name = required.string, members[name] == nil else { continue }
            if let property = properties?[name].flatMap({ try? document.resolve($0) }) {
                let skipped = direction == .request ? "readOnly" : "writeOnly"
                if property[skipped]?.value == .bool(true) { continue }
            }
            problems.append(SchemaProblem(JSONValue.keyPath(path, name), "missing (required)"))
        }
        let patterned = schema["patternProperties"]?.members ?? []
        for key in members.keys.sorted() {
            let memberPath = JSONValue.keyPath(path, key)
            let matching = patterned.filter { entry in
                if patterns[entry.key] == nil { patterns[entry.key] = .some(try? ValueMatcher.Pattern(entry.key)) }
                return patterns[entry.key]!.map { $0.matches(key) } ?? false
            }
            for entry in matching {
                validate(members[key]!, entry.node, at: memberPath, depth: depth + 1, into: &problems)
            }
            if let property = properties?[key] {
                validate(members[key]!, property, at: memberPath, depth: depth + 1, into: &problems)
            } else if !matching.isEmpty {
                continue
            } else if let additional = schema["additionalProperties"] {
                if additional.value == .bool(false) {
                    problems.append(SchemaProblem(memberPath, "not allowed (additionalProperties is false)"))
                } else {
                    validate(members[key]!, additional, at: memberPath, depth: depth + 1, into: &problems)
                }
            }
        }
    }

    private mutating func checkArray(
        _ items: [JSONValue], _ schema: OpenAPIDocument.Node, at path: String, depth: Int,
        into problems: inout [SchemaProblem]
    ) {
        if case .number(let minimum)? = schema["minItems"]?.value, Double(items.count) < minimum {
            problems.append(
                SchemaProblem(path, "expected at least \(JSONValue.number(minimum).jsonText) items, got \(items.count)")
            )
        }
        if case .number(let maximum)? = schema["maxItems"]?.value, Double(items.count) > maximum {
            problems.append(
                SchemaProblem(path, "expected at most \(JSONValue.number(maximum).jsonText) items, got \(items.count)"))
        }
        let prefix = schema["prefixItems"]?.items ?? []
        for (index, item) in items.enumerated() {
            let itemSchema = index < prefix.count ? prefix[index] : schema["items"]
            if let itemSchema { validate(item, itemSchema, at: "\(path)[\(index)]", depth: depth + 1, into: &problems) }
        }
    }

    /// `anyOf` (at least one) and `oneOf` (exactly one); when none matches, the closest one's first problem.
    private mutating func checkAlternatives(
        _ value: JSONValue, _ schema: OpenAPIDocument.Node, at path: String, depth: Int,
        into problems: inout [SchemaProblem]
    ) {
        for keyword in ["anyOf", "oneOf"] {
            let options = schema[keyword]?.items ?? []
            guard !options.isEmpty else { continue }
            let results = options.map { option in
                var inner: [SchemaProblem] = []
                validate(value, option, at: path, depth: depth + 1, into: &inner)
                return inner
            }
            let matching = results.indices.filter { results[$0].isEmpty }
            if matching.isEmpty {
                let closest = results.indices.min { results[$0].count < results[$1].count }!
                let first = results[closest][0]
                problems.append(
                    SchemaProblem(
                        path,
                        "matches none of the \(options.count) \(keyword) schemas; the closest (\(keyword)[\(closest)]) "
                            + "says \(first.path.isEmpty ? "" : first.path + ": ")\(first.message)"))
            } else if keyword == "oneOf", matching.count > 1 {
                let which = matching.map { "oneOf[\($0)]" }.joined(separator: ", ")
                problems.append(
                    SchemaProblem(path, "matches \(matching.count) oneOf schemas (\(which)); expected exactly one"))
            }
        }
    }

    /// With `discriminator.propertyName` beside `oneOf`/`anyOf`: `.some(schema)` the one the value's property names,
    /// `.some(nil)` when it names none (a problem recorded); nil when there is no discriminator to follow.
    private func discriminated(
        _ value: JSONValue, _ schema: OpenAPIDocument.Node, at path: String, into problems: inout [SchemaProblem]
    ) -> OpenAPIDocument.Node?? {
        guard let property = schema["discriminator"]?["propertyName"]?.string,
            case .object(let members) = value
        else { return nil }
        let options = (schema["oneOf"]?.items ?? []) + (schema["anyOf"]?.items ?? [])
        guard !options.isEmpty else { return nil }
        let propertyPath = JSONValue.keyPath(path, property)
        guard case .string(let name)? = members[property] else {
            problems.append(
                SchemaProblem(
                    propertyPath,
                    members[property] == nil ? "missing (the discriminator)" : "expected string (the discriminator)"))
            return .some(nil)
        }
        let reference = schema["discriminator"]?["mapping"]?[name]?.string
        let chosen = options.first { option in
            guard let target = option["$ref"]?.string else { return false }
            if let reference { return target == reference || target.hasSuffix("/" + reference) }
            return target.hasSuffix("/" + name)
        }
        if let reference, chosen == nil, reference.contains("/") {
            if let target = try? document.target(of: reference, in: schema) { return .some(target) }
        }
        guard let chosen else {
            problems.append(
                SchemaProblem(
                    propertyPath, "\(name.debugDescription) names none of the schemas the discriminator allows"))
            return .some(nil)
        }
        return .some(chosen)
    }

    /// Counts each keyword (and format) a schema uses that is not checked, once per schema.
    private mutating func countIgnored(_ fields: [String: JSONValue], at schema: OpenAPIDocument.Node) {
        // `nullable` is 3.0's; 3.1 has `type: [..., "null"]` instead.
        var names = fields.keys.filter {
            !Self.known.contains($0) && !$0.hasPrefix("x-") && !($0 == "nullable" && document.version == .v30)
        }
        if case .string(let format)? = fields["format"], !Self.formats.contains(format) {
            names.append("format: \(format)")
        }
        for name in names where ignoredPlaces.insert("\(schema.location)|\(name)").inserted {
            ignored[name, default: 0] += 1
        }
    }
}

/// One thing wrong with a value: where in it (a key path, empty for the whole value) and what.
package struct SchemaProblem: Equatable, Sendable, CustomStringConvertible {
    package var path: String
    package var message: String

    package init(_ path: String, _ message: String) {
        self.path = path
        self.message = message
    }

    package var description: String { "\(path.isEmpty ? "(the body)" : path): \(message)" }

    /// The problem as a line with its path under `prefix`: `body.results[3].id: ...`, `query.ids[1]: ...`.
    package func placed(under prefix: String) -> String {
        let place = path.isEmpty ? prefix : path.hasPrefix("[") ? prefix + path : "\(prefix).\(path)"
        return "\(place): \(message)"
    }
}

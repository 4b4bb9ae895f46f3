import Foundation
import JSONModel
import TestTurns
import Testing
import YAMLParsing

@testable import StubContracts
@testable import StubCore

/// JSON Schema as OpenAPI uses it, keyword by keyword: each case a schema (YAML), a value (JSON) and the problems
/// it must have, by key path and message.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct SchemaValidatorTests {
    /// A document whose `components.schemas.S` is `schema`, with `Pet`, `Cat`, `Dog` and a self-referring `Node`
    /// beside it to refer to.
    static func document(_ schema: String, version: String = "3.0.3") throws -> OpenAPIDocument {
        let yaml = """
            openapi: \(version)
            components:
              schemas:
                S: \(schema)
                Pet:
                  type: object
                  required: [id, name]
                  properties:
                    id: {type: integer, format: int64}
                    name: {type: string}
                Cat: {type: object, required: [kind, meows], properties: {kind: {type: string}, meows: {type: boolean}}}
                Dog: {type: object, required: [kind, barks], properties: {kind: {type: string}, barks: {type: integer}}}
                Node: {type: object, properties: {next: {$ref: '#/components/schemas/Node'}, value: {type: integer}}}
                Loop: {$ref: '#/components/schemas/Loop2'}
                Loop2: {allOf: [{$ref: '#/components/schemas/Loop'}]}
            """
        return try OpenAPIDocument(YAMLReader.value(Array(yaml.utf8)))
    }

    static func problems(_ schema: String, _ json: String, version: String = "3.0.3") throws -> [String] {
        let document = try document(schema, version: version)
        var validator = SchemaValidator(document: document)
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
        let node = try #require(document.root["components"]?["schemas"]?["S"])
        return validator.problems(of: value, against: node).map(\.description)
    }

    @Test(arguments: [
        ("{type: integer}", "7", []),
        ("{type: integer}", #""7""#, ["(the body): expected integer, got string"]),
        ("{type: integer}", "7.5", ["(the body): expected integer, got number"]),
        ("{type: number}", "7", []),
        ("{type: string}", "null", ["(the body): expected string, got null"]),
        ("{type: string, nullable: true}", "null", []),
        ("{type: array, items: {type: string}}", #"["a", 1]"#, ["[1]: expected string, got integer"]),
        ("{type: object}", "[]", ["(the body): expected object, got array"]),
        ("{type: boolean}", "true", []),
    ])
    func types(_ schema: String, _ json: String, _ expected: [String]) throws {
        #expect(try Self.problems(schema, json) == expected)
    }

    @Test(arguments: [
        (#"{type: [string, "null"]}"#, "null", []),
        (#"{type: [string, "null"]}"#, "3", ["(the body): expected string or null, got integer"]),
        ("{type: integer, exclusiveMinimum: 0}", "0", ["(the body): expected greater than 0, got 0"]),
        ("{type: integer, exclusiveMaximum: 10}", "10", ["(the body): expected less than 10, got 10"]),
        ("{const: 3}", "4", ["(the body): expected 3, got 4"]),
        ("{prefixItems: [{type: string}, {type: integer}], items: {type: boolean}}", #"["a", 1, true]"#, []),
        (
            "{prefixItems: [{type: string}, {type: integer}], items: {type: boolean}}", #"[1, 1, 2]"#,
            ["[0]: expected string, got integer", "[2]: expected boolean, got integer"]
        ),
        (
            "{$ref: '#/components/schemas/Pet', required: [tag]}", #"{"id": 1, "name": "a"}"#,
            ["tag: missing (required)"]
        ),
    ])
    func version31(_ schema: String, _ json: String, _ expected: [String]) throws {
        #expect(try Self.problems(schema, json, version: "3.1.0") == expected)
    }

    @Test(arguments: [
        ("{$ref: '#/components/schemas/Pet'}", #"{"id": 1, "name": "Rex"}"#, []),
        ("{$ref: '#/components/schemas/Pet'}", #"{"name": "Rex"}"#, ["id: missing (required)"]),
        ("{$ref: '#/components/schemas/Pet'}", #"{"id": "1", "name": "Rex"}"#, ["id: expected integer, got string"]),
        (
            "{type: object, properties: {results: {type: array, items: {$ref: '#/components/schemas/Pet'}}}}",
            #"{"results": [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}, {"id": 3, "name": "c"}, {"id": "x", "name": "d"}]}"#,
            ["results[3].id: expected integer, got string"]
        ),
        // 3.0 ignores a `$ref`'s siblings.
        ("{$ref: '#/components/schemas/Pet', required: [tag]}", #"{"id": 1, "name": "a"}"#, []),
        (
            "{$ref: '#/components/schemas/Node'}", #"{"value": 1, "next": {"value": 2, "next": {"value": "x"}}}"#,
            ["next.next.value: expected integer, got string"]
        ),
        (
            "{$ref: '#/components/schemas/Missing'}", "1",
            [
                #"(the body): the schema cannot be read: components.schemas.S.$ref: #/components/schemas/Missing names nothing: no "Missing" in components.schemas"#
            ]
        ),
        (
            "{type: object, additionalProperties: false, properties: {a: {}}}", #"{"a": 1, "b": 2}"#,
            ["b: not allowed (additionalProperties is false)"]
        ),
        (
            "{type: object, additionalProperties: {type: integer}}", #"{"a": 1, "b": "2"}"#,
            ["b: expected integer, got string"]
        ),
        (
            #"{type: object, properties: {"odd key": {type: integer}}}"#, #"{"odd key": "x"}"#,
            [#"["odd key"]: expected integer, got string"#]
        ),
    ])
    func objectsAndReferences(_ schema: String, _ json: String, _ expected: [String]) throws {
        let problems = try Self.problems(schema, json)
        #expect(problems == expected)
    }

    @Test(arguments: [
        ("{enum: [a, b]}", #""c""#, [#"(the body): expected one of "a", "b", got "c""#]),
        ("{type: string, minLength: 2, maxLength: 3}", #""a""#, ["(the body): expected at least 2 characters, got 1"]),
        (
            "{type: string, minLength: 2, maxLength: 3}", #""abcd""#,
            ["(the body): expected at most 3 characters, got 4"]
        ),
        ("{type: string, pattern: '^[a-z]{3}$'}", #""abc""#, []),
        (
            "{type: string, pattern: '^[a-z]{3}$'}", #""ab1""#,
            [#"(the body): "ab1" does not match the pattern ^[a-z]{3}$"#]
        ),
        ("{type: integer, minimum: 1, maximum: 5}", "0", ["(the body): expected at least 1, got 0"]),
        ("{type: integer, minimum: 1, maximum: 5}", "6", ["(the body): expected at most 5, got 6"]),
        ("{type: integer, minimum: 1, exclusiveMinimum: true}", "1", ["(the body): expected greater than 1, got 1"]),
        ("{type: number, multipleOf: 0.5}", "1.5", []),
        ("{type: number, multipleOf: 0.5}", "1.2", ["(the body): expected a multiple of 0.5, got 1.2"]),
        ("{type: integer, format: int32}", "2147483648", ["(the body): expected an int32, got 2147483648"]),
        ("{type: array, minItems: 1, maxItems: 2}", "[]", ["(the body): expected at least 1 items, got 0"]),
        ("{type: array, minItems: 1, maxItems: 2}", "[1, 2, 3]", ["(the body): expected at most 2 items, got 3"]),
    ])
    func bounds(_ schema: String, _ json: String, _ expected: [String]) throws {
        #expect(try Self.problems(schema, json) == expected)
    }

    @Test(arguments: [
        ("date-time", "2026-11-25T06:05:29Z", true), ("date-time", "2026-11-25T06:05:29.123+01:00", true),
        ("date-time", "2026-11-25 06:05:29Z", false), ("date-time", "2026-13-25T06:05:29Z", false),
        ("date-time", "2026-11-25T06:05:29", false), ("date", "2026-11-25", true), ("date", "2026-11-32", false),
        ("uuid", "3fa85f64-5717-4562-b3fc-2c963f66afa6", true), ("uuid", "3fa85f64571745", false),
        ("uri", "https://itunes.apple.com/search?term=a", true), ("uri", "not a uri", false),
        ("email", "user@example.com", true), ("email", "user.example.com", false),
        ("uriref", "anything at all", true),
    ])
    func formats(_ format: String, _ text: String, _ valid: Bool) throws {
        let problems = try Self.problems("{type: string, format: \(format)}", "\"\(text)\"")
        #expect(problems == (valid ? [] : ["(the body): \(text.debugDescription) is not a valid \(format)"]))
    }

    @Test(arguments: [
        (
            "{allOf: [{$ref: '#/components/schemas/Pet'}, {required: [tag]}]}", #"{"id": 1, "name": "a"}"#,
            ["tag: missing (required)"]
        ),
        (
            "{anyOf: [{type: string}, {type: integer}]}", "true",
            [
                "(the body): matches none of the 2 anyOf schemas; the closest (anyOf[0]) says expected string, got boolean"
            ]
        ),
        ("{anyOf: [{type: string}, {type: integer}]}", "3", []),
        (
            "{oneOf: [{type: integer}, {type: number}]}", "3",
            ["(the body): matches 2 oneOf schemas (oneOf[0], oneOf[1]); expected exactly one"]
        ),
        ("{oneOf: [{type: integer}, {type: string}]}", "3", []),
        ("{not: {type: string}}", #""a""#, [#"(the body): must not match the schema under "not""#]),
        ("{not: {type: string}}", "1", []),
        (
            "{oneOf: [{$ref: '#/components/schemas/Cat'}, {$ref: '#/components/schemas/Dog'}], discriminator: {propertyName: kind}}",
            #"{"kind": "Dog", "barks": "loud"}"#, ["barks: expected integer, got string"]
        ),
        (
            "{oneOf: [{$ref: '#/components/schemas/Cat'}, {$ref: '#/components/schemas/Dog'}], discriminator: {propertyName: kind}}",
            #"{"kind": "Cow"}"#, [#"kind: "Cow" names none of the schemas the discriminator allows"#]
        ),
        (
            "{oneOf: [{$ref: '#/components/schemas/Cat'}, {$ref: '#/components/schemas/Dog'}], discriminator: {propertyName: kind, mapping: {woof: '#/components/schemas/Dog'}}}",
            #"{"kind": "woof", "barks": 2}"#, []
        ),
        (
            "{oneOf: [{$ref: '#/components/schemas/Cat'}, {$ref: '#/components/schemas/Dog'}], discriminator: {propertyName: kind}}",
            #"{"barks": 2}"#, ["kind: missing (the discriminator)"]
        ),
    ])
    func composition(_ schema: String, _ json: String, _ expected: [String]) throws {
        #expect(try Self.problems(schema, json) == expected)
    }

    /// Found by review: floating tolerance, bounds past Int's range, int64's open upper bound, 3.0's `nullable`
    /// with an `enum`, 3.1 without `nullable`, `patternProperties` beside `additionalProperties: false`.
    @Test(arguments: [
        (
            "{type: integer, multipleOf: 2}", "1000000001", "3.0.3",
            ["(the body): expected a multiple of 2, got 1000000001"]
        ),
        (
            "{type: integer, multipleOf: 10}", "5000000005", "3.0.3",
            ["(the body): expected a multiple of 10, got 5000000005"]
        ),
        (
            "{type: string, minLength: 1e19}", #""a""#, "3.0.3",
            ["(the body): expected at least 1e+19 characters, got 1"]
        ),
        ("{type: array, maxItems: -1e19}", "[]", "3.0.3", ["(the body): expected at most -1e+19 items, got 0"]),
        (
            "{type: integer, format: int64}", "9223372036854775808", "3.0.3",
            ["(the body): expected an int64, got 9.223372036854776e+18"]
        ),
        (
            "{type: string, nullable: true, enum: [a, b]}", "null", "3.0.3",
            [#"(the body): expected one of "a", "b", got null"#]
        ),
        ("{type: string, nullable: true, enum: [a, null]}", "null", "3.0.3", []),
        ("{type: string, nullable: true}", "null", "3.1.0", ["(the body): expected string, got null"]),
        (
            #"{type: object, patternProperties: {"^x-": {type: integer}}, additionalProperties: false}"#,
            #"{"x-a": 1, "x-b": "2", "y": 3}"#, "3.1.0",
            ["x-b: expected integer, got string", "y: not allowed (additionalProperties is false)"]
        ),
    ])
    func foundByReview(_ schema: String, _ json: String, _ version: String, _ expected: [String]) throws {
        #expect(try Self.problems(schema, json, version: version) == expected)
    }

    /// A required `readOnly` property is required in answers only; a `writeOnly` one in requests only.
    @Test func readOnlyAndWriteOnly_areRequiredInOneDirection() throws {
        let document = try Self.document(
            "{type: object, required: [id, password], properties: {id: {readOnly: true}, password: {writeOnly: true}}}")
        let node = try #require(document.root["components"]?["schemas"]?["S"])
        var answers = SchemaValidator(document: document, direction: .response)
        var requests = SchemaValidator(document: document, direction: .request)
        #expect(answers.problems(of: .object([:]), against: node).map(\.description) == ["id: missing (required)"])
        #expect(
            requests.problems(of: .object([:]), against: node).map(\.description) == ["password: missing (required)"])
    }

    @Test func aReferenceCycle_endsWithAProblem_notAHang() throws {
        let problems = try Self.problems("{$ref: '#/components/schemas/Loop'}", "1")
        #expect(problems.count == 1)
        #expect(problems.first?.contains("nests past 256 levels") == true)
    }

    /// Nested `anyOf`s that fail in every branch try 2^depth paths; the check stops at its step bound and says so.
    @Test func anExplodingSchema_isCheckedInPart_andSaysSo() throws {
        var yaml = "openapi: 3.1.0\ncomponents:\n  schemas:\n    A24: {type: string}\n"
        for level in 0..<24 {
            yaml +=
                "    A\(level): {anyOf: [{$ref: '#/components/schemas/A\(level + 1)'}, {$ref: '#/components/schemas/A\(level + 1)'}]}\n"
        }
        let document = try OpenAPIDocument(YAMLReader.value(Array(yaml.utf8)))
        var validator = SchemaValidator(document: document)
        #expect(validator.maxSteps == 200_000)
        validator.maxSteps = 2_000  // the same bound, reached sooner: the suite's threads are shared
        let problems = validator.problems(
            of: .number(1), against: try #require(document.root["components"]?["schemas"]?["A0"]))
        #expect(problems.last?.description == "(the body): checked in part: the schema takes more than 2000 steps")
    }

    @Test func keywordsNotChecked_areCountedOncePerSchema() throws {
        let document = try Self.document(
            "{type: array, uniqueItems: true, items: {type: string, format: uriref, x-note: 1}}")
        var validator = SchemaValidator(document: document)
        let node = try #require(document.root["components"]?["schemas"]?["S"])
        #expect(validator.problems(of: .array([.string("a"), .string("b")]), against: node).isEmpty)
        #expect(validator.ignored == ["uniqueItems": 1, "format: uriref": 1])
    }
}

import Foundation
import JSONModel
import TestTurns
import Testing
import YAMLParsing

@testable import StubContracts
@testable import StubCore

/// Values made from schemas where a document has no example: each one is what the schema asks, and validates
/// against it.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct ExampleGeneratorTests {
    @Test(arguments: [
        (
            "{type: object, required: [id, name], properties: {id: {type: integer, minimum: 3}, name: {type: string}, tag: {type: string}}}",
            #"{"id":3,"name":"string"}"#
        ),
        ("{type: string, enum: [available, sold]}", #""available""#),
        ("{type: string, format: date-time}", #""2026-01-01T12:00:00Z""#),
        ("{type: string, format: uuid}", #""3fa85f64-5717-4562-b3fc-2c963f66afa6""#),
        (#"{type: string, pattern: '^[\da-z]{26}$'}"#, #""00000000000000000000000000""#),
        ("{type: string, pattern: '^v[0-9]+\\.[0-9]+$'}", #""v0.0""#),
        ("{type: string, pattern: '^(a|b)$'}", #""string""#),
        ("{type: array, minItems: 2, items: {type: integer, multipleOf: 5, minimum: 1}}", "[5,5]"),
        ("{type: [integer, 'null'], exclusiveMinimum: 0}", "1"),
        ("{type: object, properties: {a: {type: integer}}, example: {a: 7}}", #"{"a":7}"#),
        (
            "{allOf: [{$ref: '#/components/schemas/Pet'}, {type: object, required: [tag], properties: {tag: {type: string, example: dog}}}]}",
            #"{"id":0,"name":"string","tag":"dog"}"#
        ),
        ("{oneOf: [{type: boolean}, {type: string}]}", "true"),
        (
            "{$ref: '#/components/schemas/Node'}",
            #"{"next":{"next":{"next":{"next":{"next":{"next":{"next":{"next":{"next":{"next":{"next":{"next":null}}}}}}}}}}}}"#
        ),
        ("{type: string, minLength: 10, maxLength: 12}", #""stringstring""#),
        // Found by review: hostile bounds clamp, allOf fills placeholders last, a discriminator names its option.
        ("{type: integer, exclusiveMaximum: 0}", "-1"),
        ("{allOf: [{$ref: '#/components/schemas/Pet'}, {required: [id]}]}", #"{"id":0,"name":"string"}"#),
        ("{allOf: [{required: [code]}]}", #"{"code":"code"}"#),
    ])
    func aValueIsMade_thatTheSchemaAccepts(_ schema: String, _ expected: String) throws {
        let yaml = """
            openapi: 3.1.0
            components:
              schemas:
                S: \(schema)
                Pet: {type: object, required: [id, name], properties: {id: {type: integer}, name: {type: string}}}
                Node: {type: object, required: [next], properties: {next: {$ref: '#/components/schemas/Node'}}}
                Cat: {type: object, required: [kind], properties: {kind: {type: string}}}
                Pick: {oneOf: [{$ref: '#/components/schemas/Cat'}], discriminator: {propertyName: kind, mapping: {cat: '#/components/schemas/Cat'}}}
            """
        let document = try OpenAPIDocument(YAMLReader.value(Array(yaml.utf8)))
        let node = try #require(document.root["components"]?["schemas"]?["S"])
        var generator = ExampleGenerator(document: document)
        let value = generator.value(for: node)
        #expect(value.jsonText == expected)
        if !schema.contains("Node") && !schema.contains("(a|b)") {
            var validator = SchemaValidator(document: document)
            #expect(validator.problems(of: value, against: node) == [])
        }
    }

    /// Found by review: bounds a hostile or broken document may hold are clamped, not trapped on.
    @Test(
        arguments: [
            ("{type: string, maxLength: -1}", #""""#),
            ("{type: array, minItems: 1e19, maxItems: 2, items: {type: boolean}}", "[true,true]"),
            ("{type: string, pattern: 'a{-1}'}", #""string""#),
            ("{type: string, minLength: 1e9}", nil),
        ] as [(String, String?)])
    func hostileBounds_areClamped(_ schema: String, _ expected: String?) throws {
        let yaml = "openapi: 3.1.0\ncomponents:\n  schemas:\n    S: \(schema)\n"
        let document = try OpenAPIDocument(YAMLReader.value(Array(yaml.utf8)))
        var generator = ExampleGenerator(document: document)
        let value = generator.value(for: try #require(document.root["components"]?["schemas"]?["S"]))
        if let expected { #expect(value.jsonText == expected) }
        if case .string(let text) = value { #expect(text.count <= 20_000) }
    }

    @Test func aDiscriminator_namesTheOptionTheExampleTook() throws {
        let yaml = """
            openapi: 3.1.0
            components:
              schemas:
                Cat: {type: object, required: [kind], properties: {kind: {type: string}}}
                Pick: {oneOf: [{$ref: '#/components/schemas/Cat'}], discriminator: {propertyName: kind, mapping: {cat: '#/components/schemas/Cat'}}}
            """
        let document = try OpenAPIDocument(YAMLReader.value(Array(yaml.utf8)))
        var generator = ExampleGenerator(document: document)
        let node = try #require(document.root["components"]?["schemas"]?["Pick"])
        #expect(generator.value(for: node).jsonText == #"{"kind":"cat"}"#)
        var validator = SchemaValidator(document: document)
        #expect(validator.problems(of: generator.value(for: node), against: node) == [])
    }

    /// Arrays of arrays with `minItems: 100` would make 100^12 values; the generator stops near 10,000.
    @Test func nestedMinItems_areBounded() throws {
        let yaml = """
            openapi: 3.1.0
            components:
              schemas:
                S: {type: array, minItems: 100, items: {$ref: '#/components/schemas/S'}}
            """
        let document = try OpenAPIDocument(YAMLReader.value(Array(yaml.utf8)))
        var generator = ExampleGenerator(document: document)
        let value = generator.value(for: try #require(document.root["components"]?["schemas"]?["S"]))
        func count(_ value: JSONValue) -> Int {
            if case .array(let items) = value { return 1 + items.reduce(0) { $0 + count($1) } }
            return 1
        }
        #expect(count(value) <= 20_000)
        #expect(count(value) > 100)
    }
}

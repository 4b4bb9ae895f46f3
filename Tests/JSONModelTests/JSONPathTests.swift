import Foundation
import TestTurns
import Testing

@testable import JSONModel

/// `jsonPath` matchers address a value by keys and `[N]` indexes, starting with an index for a top-level array.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct JSONPathTests {
    private static func json(_ text: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    static let array = #"[{"a": 1, "b": [10, 11]}, {"a": "two"}, [true, null]]"#
    static let object = #"{"a": [{"b": "x"}, {"b": "y", "c": {"d": [7]}}], "user": {"name": "ada"}}"#

    @Test(arguments: [
        (array, "[0].a", JSONValue.number(1)),
        (array, "[1].a", .string("two")),
        (array, "[2]", .array([.bool(true), .null])),
        (array, "[2][0]", .bool(true)),
        (array, "[2][1]", .null),
        (array, "[0].b[1]", .number(11)),
        (object, "a[1].b", .string("y")),
        (object, "a[0]", .object(["b": .string("x")])),
        (object, "a[1].c.d[0]", .number(7)),
        (object, "user.name", .string("ada")),
    ])
    func aPath_readsTheValueItAddresses(_ document: String, path: String, expected: JSONValue) throws {
        let parsed = try JSONPath(path)
        #expect(parsed.description == path)
        #expect(parsed.value(in: try Self.json(document)) == expected)
    }

    @Test(arguments: [
        (array, "[3]"), (array, "[0].c"), (array, "[0][0]"), (array, "a"), (array, "[1].a.b"),
        (object, "[0]"), (object, "a[2].b"), (object, "user[0]"), (object, "user.name.first"),
    ])
    func aPathThatMissesOrMeetsTheWrongType_readsNothing(_ document: String, path: String) throws {
        #expect(try JSONPath(path).value(in: try Self.json(document)) == nil)
    }

    @Test(arguments: [
        "", ".a", "a.", "a..b", "[0].", "[0].[1]", "a[", "a[]", "a[x]", "a[-1]", "a[ 1]", "[0]a",
        "a[1]b", "a[1234567890]", "a[١]",
    ])
    func aMalformedPath_isRefused(_ path: String) {
        #expect(throws: JSONPath.SyntaxError.self, "\(path.debugDescription)") { try JSONPath(path) }
    }
}

import TestTurns
import Testing

@testable import StubCore

/// The regular-expression dialect fixtures rely on: Swift's `Regex` now, `NSRegularExpression` before, so these
/// are the cases where the two could differ and fixtures written for either must keep matching the same values.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct ValueMatcherPatternTests {
    @Test(arguments: [
        // Unanchored patterns match anywhere; anchors pin the ends.
        ("json", "application/json; charset=utf-8", true),
        ("^json", "application/json", false),
        ("json", "js", false),
        ("", "anything", true),
        ("e", "e\u{301}", true),
        ("b c", "a b c", true),
        ("^[0-9]+$", "1234", true),
        ("^[0-9]+$", "12a4", false),
        ("^[0-9]+$", "", false),
        // Escapes, classes, counted and lazy repetition, alternation, groups, inline flags.
        (#"^\d{2,3}-\w+$"#, "42-abc_1", true),
        (#"^\d{2,3}-\w+$"#, "4-abc", false),
        (#"\S"#, "   ", false),
        (#"^a.*?b$"#, "a-b-b", true),
        ("^p[io]ng$", "pong", true),
        ("^(?:jack|jill)( johnson)?$", "jill johnson", true),
        ("(?i)^JACK", "jack johnson", true),
        ("^JACK", "jack johnson", false),
        // `.` stops at a newline; `$` also matches before a final newline, as in ICU.
        ("^a.b$", "a\nb", false),
        ("^ab$", "ab\n", true),
        ("^ab$", "ab\r\n", true),
        ("^ab$", "ab\n\n", false),
        (#"^ab\z"#, "ab\n", false),
        (#"^ab\Z"#, "ab\n", true),
        // Matching is by Unicode scalar, as NSRegularExpression matched by UTF-16 unit: a combining accent is its
        // own scalar, so `^e` matches a decomposed "é" and `^.$` does not.
        ("^e", "e\u{301}", true),
        ("^.$", "e\u{301}", false),
        ("^.$", "\u{e9}", true),
    ])
    func aPattern_matchesAsFixturesExpect(_ source: String, value: String, expected: Bool) throws {
        let pattern = try ValueMatcher.Pattern(source)
        #expect(ValueMatcher.matches(pattern).accepts(value) == expected)
    }

    @Test(arguments: ["(", "[a-", "a{2,1}", "(?<name", #"\"#])
    func anInvalidPattern_throws(_ source: String) {
        #expect(throws: (any Error).self) { try ValueMatcher.Pattern(source) }
    }

    @Test func aMissingValue_neverMatches() throws {
        #expect(!ValueMatcher.matches(try .init(".*")).accepts(nil))
    }

    /// One compiled pattern is shared by every request the loop thread and test threads match.
    @Test func onePattern_matchesFromManyTasksAtOnce() async throws {
        let pattern = try ValueMatcher.Pattern("^[0-9]+$")
        let results = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<64 {
                group.addTask { pattern.matches(index.isMultiple(of: 2) ? "\(index)" : "x\(index)") }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.filter { $0 }.count == 32)
    }
}

import Foundation
import TestTurns
import Testing

@testable import JSONModel

/// The one-pass JSON check agrees with the JSON decoder on what is a JSON text.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct JSONSyntaxTests {
    static let valid = [
        "0", "-0", "1.5e+10", "-12.25E-3", "true", "false", "null", #""""#,
        #""a\"b\\c\/d\b\f\n\r\t\u00e9\uD83D\uDE00""#,
        "[]", "{}", " [ 1 , [ ] , { } ] ", #"{"a": {"b": [1, "x", null, true]}, "c": -0.5}"#, "\u{FEFF}{}",
        #"{"é": "ü"}"#, "[[[[[[[[[[]]]]]]]]]]", "\t\r\n 7 \n",
        "[1,]", #"{"a":1,}"#,  // trailing commas: JSONDecoder reads them

    ]
    static let invalid = [
        "", " ", "01", "1.", ".5", "-", "1e", "1e+", "+1", "0x10", "tru", "nul", "True", "NaN", "Infinity",
        #"""#, #""\x""#, #""\u12""#, #""\u12G4""#, "\"a\u{1}b\"", "[,1]", "{,}", #"{"a" 1}"#, #"{"a":}"#,
        "[1,,]", "{1: 2}", "{'a': 1}", "[1 2]", "[", "]", "{", "}", "[}", "{]", "[1]]", "1 2", "{}{}", "[]x",
    ]

    @Test(arguments: valid)
    func aJSONText_isValid(_ text: String) {
        #expect(JSONSyntax.isValid(Array(text.utf8)))
        #expect((try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))) != nil, "the decoder agrees")
    }

    @Test(arguments: invalid)
    func notAJSONText_isInvalid(_ text: String) {
        #expect(!JSONSyntax.isValid(Array(text.utf8)))
        #expect((try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))) == nil, "the decoder agrees")
    }

    @Test func bytesThatAreNotUTF8_areInvalid() {
        #expect(!JSONSyntax.isValid([UInt8(ascii: "\""), 0xFF, UInt8(ascii: "\"")]))
    }

    /// Found by the stub-server fuzz target: the decoder keeps a repeated key's first value and never reads the
    /// later one, so it takes `1e` (no exponent digits) there; the check reads every byte and refuses it.
    @Test func aBrokenValueUnderARepeatedKey_isInvalid() {
        let body = Array(#"[{"a":1,"a":1e}]"#.utf8)
        #expect((try? JSONDecoder().decode(JSONValue.self, from: Data(body))) != nil, "the decoder skips it")
        #expect((try? JSONSerialization.jsonObject(with: Data(body))) == nil)
        #expect(!JSONSyntax.isValid(body))
    }

    /// Found by the stub-server fuzz target: the decoder reads `00 31` as UTF-16 for `1`; the check reads UTF-8
    /// only, as network JSON is (RFC 8259, section 8.1), so such a body is binary, not JSON.
    @Test func utf16JSON_isNotReadAsJSON() {
        let body: [UInt8] = [0x00, 0x31]
        #expect((try? JSONDecoder().decode(JSONValue.self, from: Data(body))) != nil)
        #expect(!JSONSyntax.isValid(body))
    }

    @Test func deepNesting_costsNoCallFrames() {
        let depth = 100_000
        let text = Array(repeating: UInt8(ascii: "["), count: depth) + Array(repeating: UInt8(ascii: "]"), count: depth)
        #expect(JSONSyntax.isValid(text))
        #expect(!JSONSyntax.isValid(Array(text.dropLast())))
    }

    /// Every fixture body in MockData that the decoder reads as JSON, the check does too, and the other way round.
    @Test func everyMockDataBody_getsTheDecodersAnswer() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("MockData")
        let files = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
        var checked = 0
        for case let file as URL in files where !file.hasDirectoryPath {
            let data = try Data(contentsOf: file)
            let decoded = (try? JSONDecoder().decode(JSONValue.self, from: data)) != nil
            #expect(JSONSyntax.isValid(Array(data)) == decoded, "\(file.lastPathComponent)")
            checked += 1
        }
        #expect(checked > 20)
    }
}

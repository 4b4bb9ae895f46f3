import Foundation
import JSONModel
import StubCore
import TestTurns
import Testing

@testable import YAMLParsing

@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct YAMLReaderTests {
    static func read(_ text: String) throws(YAMLError) -> JSONValue {
        try YAMLReader.value(Array(text.utf8))
    }

    /// Every JSON file in MockData reads through the YAML reader to the value the JSON reader gives.
    /// One file at a time, giving the thread back between files (`Task.yield`): the whole folder is a second of
    /// work in a debug build, which must not hold one of the cooperative pool's few threads at once.
    @Test func everyJSONFileInMockData_readsAsYAMLToTheSameValue() async throws {
        let root = try #require(StubCatalog.findFolder())
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)!
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "json" }
        #expect(files.count >= 15)
        for file in files {
            await Task.yield()
            let data = try Data(contentsOf: file)
            guard let json = try? JSONDecoder().decode(JSONValue.self, from: data) else { continue }
            #expect(try YAMLReader.value([UInt8](data)) == json, "\(file.lastPathComponent)")
        }
    }

    @Test func anOpenAPIShapedDocument_readsWithEveryStyle() throws {
        let text = """
            # A comment
            openapi: 3.1.0
            info: {title: "Pets \\u00e9", version: '1.0', empty: }
            defaults: &defaults
              limit: 25
              offset: 0x10
            paths:
              /pets:
                get:
                  parameters:
                  - name: limit
                    in: query
                    required: true
                  - {name: offset, in: query}
                  x-merged:
                    <<: *defaults
                    limit: 50
                  description: |
                    Lists pets.
                      Indented.
                  summary: >-
                    One
                    line
                  flags: [true, False, ~, null, .inf, -.5, 1e3, 0o17, "7"]
            """
        let value = try Self.read(text)
        guard case .object(let top) = value, case .object(let paths) = top["paths"],
            case .object(let pets) = paths["/pets"], case .object(let get) = pets["get"]
        else {
            Issue.record("unexpected shape: \(value)")
            return
        }
        #expect(top["openapi"] == .string("3.1.0"))
        #expect(top["info"] == .object(["title": .string("Pets é"), "version": .string("1.0"), "empty": .null]))
        #expect(get["x-merged"] == .object(["limit": .number(50), "offset": .number(16)]))
        #expect(get["description"] == .string("Lists pets.\n  Indented.\n"))
        #expect(get["summary"] == .string("One line"))
        #expect(
            get["flags"]
                == .array([
                    .bool(true), .bool(false), .null, .null, .number(.infinity), .number(-0.5), .number(1000),
                    .number(15), .string("7"),
                ]))
        #expect(
            get["parameters"]
                == .array([
                    .object(["name": .string("limit"), "in": .string("query"), "required": .bool(true)]),
                    .object(["name": .string("offset"), "in": .string("query")]),
                ]))
    }

    @Test(arguments: [
        ("a: 1\na: 2\n", 2, 1, "duplicate key \"a\""),
        ("a:\n\tb: 1\n", 2, 1, "a tab in indentation"),
        ("a: *nowhere\n", 1, 4, "undefined alias *nowhere"),
        ("a: \"open\n", 1, 4, "the quoted scalar is not closed"),
        ("a: [1, 2\n", 2, 1, "the flow collection is not closed"),
        ("? a\n: b\n", 1, 1, "explicit keys (? key) are not supported"),
        ("a: !custom x\n", 1, 4, "the tag !custom is not supported"),
        ("a: b: c\n", 1, 4, "a mapping cannot start on the line of its key"),
    ])
    func aProblem_isRefusedWithItsLineAndColumn(_ text: String, line: Int, column: Int, message: String) {
        #expect {
            try Self.read(text)
        } throws: { error in
            guard let error = error as? YAMLError else { return false }
            return error.line == line && error.column == column && error.message.hasPrefix(message)
        }
    }

    /// Found by fuzzing: JSONDecoder reads `9\0\0\0\0{` as 9; YAML allows no control character but tab and
    /// line breaks, so the reader refuses it where it is rather than read a string.
    @Test func aControlCharacter_isRefusedWhereItIs() {
        #expect(throws: YAMLError(line: 1, column: 2, message: "a control character (0) that YAML does not allow")) {
            try YAMLReader.value([0x39, 0x00, 0x00, 0x00, 0x00, 0x7B, 0x0A])
        }
    }

    /// Found by fuzzing: JSON reads tabs before a top-level value as white space, and so does YAML before a
    /// scalar or a flow collection; before a block collection they are indentation, refused.
    @Test func tabsBeforeATopLevelValue_areWhiteSpace_butNotBeforeABlockCollection() throws {
        #expect(try YAMLReader.value([0x09, 0x31, 0x09, 0x20, 0x09, 0x09, 0x20]) == .number(1))
        #expect(try Self.read("\t{\"a\": [1,\n\t2]}") == .object(["a": .array([.number(1), .number(2)])]))
        #expect(throws: YAMLError(line: 1, column: 2, message: "a tab in indentation; YAML indents with spaces")) {
            try Self.read("\tkey: value")
        }
    }

    /// Node properties where YAML allows them: before an implicit key (the mapping starts where they do), on lines
    /// of their own (the node's, or a key's below them), before a sequence at a mapping key's indentation.
    @Test(arguments: [
        ("&first name: Ada\nrole: *first\n", #"{"name":"Ada","role":"name"}"#),
        ("!!str 7: seven\nother: 8\n", #"{"7":"seven","other":8}"#),
        (
            "album: &meta\n  &k title: Blue\n  year: 1971\ncopy: *meta\n",
            #"{"album":{"title":"Blue","year":1971},"copy":{"title":"Blue","year":1971}}"#
        ),
        ("value: &v\n  !!str\n  42\nagain: *v\n", #"{"again":"42","value":"42"}"#),
        ("tracks: &list\n- one\n- two\n", #"{"tracks":["one","two"]}"#),
        ("tracks: !!seq\n- one\n", #"{"tracks":["one"]}"#),
    ])
    func nodeProperties_apply_whereYAMLPutsThem(_ yaml: String, _ json: String) throws {
        #expect(try Self.read(yaml).jsonText == json)
    }

    /// Plain scalars that start with `:` in flow collections, tabs that separate rather than indent, and a
    /// continuation line that starts with `- `.
    @Test(arguments: [
        ("{a: :b}", #"{"a":":b"}"#),
        (#"[ "k"::v, ::x ]"#, #"[{"k":":v"},"::x"]"#),
        ("key:\n \tvalue\n", #"{"key":"value"}"#),
        ("first line\n\tsecond line\n", #""first line second line""#),
        ("- one\n - two\n", #"["one - two"]"#),
    ])
    func flowColons_separatingTabs_andContinuations(_ yaml: String, _ json: String) throws {
        #expect(try Self.read(yaml).jsonText == json)
    }

    @Test(arguments: [
        ("key:\n\tvalue\n", 2, 1),
        ("map:\n \tkey: value\n", 2, 2),
        ("a: &x &y b\n", 1, 7),
    ])
    func tabsBeforeCollections_andTwoAnchors_areRefused(_ yaml: String, _ line: Int, _ column: Int) {
        #expect {
            try Self.read(yaml)
        } throws: { error in
            guard let error = error as? YAMLError else { return false }
            return error.line == line && error.column == column
        }
    }

    /// Found by a 10-minute fuzz run: JSONDecoder reads a line break inside a string (RFC 8259 forbids it); YAML
    /// folds it, and a `---` at the start of the next line is a document marker, refused where it is.
    @Test func aDocumentMarkerInsideAQuotedScalar_isRefusedWhereItIs() throws {
        #expect(try Self.read("{\"a\": \"x\n y\"}") == .object(["a": .string("x y")]))
        #expect(throws: YAMLError(line: 2, column: 1, message: "a document marker inside a quoted scalar")) {
            try Self.read("{\"a\": \"x\n---\ny\"}")
        }
    }

    /// Found by a 10-minute fuzz run: JSONDecoder accepts a broken `\u` escape in a value that a later duplicate key
    /// replaces (it never reads that value); YAML reads every value, and refuses the escape where it is.
    @Test func aBrokenUnicodeEscape_isRefusedWhereItIs_evenUnderADuplicateKey() {
        #expect(throws: YAMLError(line: 1, column: 9, message: "\\u needs 4 hexadecimal digits")) {
            try Self.read(#"{"a": "x\umb", "a": null}"#)
        }
    }

    /// Found by the CI's fuzz smoke: JSONDecoder reads the escape `\j`, which neither JSON nor YAML has.
    @Test func anUnknownEscape_isRefusedWhereItIs() {
        #expect(throws: YAMLError(line: 1, column: 12, message: "unknown escape \\j")) {
            try Self.read(#"{"a": "http\jpg"}"#)
        }
    }

    @Test func bytesThatAreNotUTF8_areRefusedWhereTheyAre() {
        #expect(throws: YAMLError(line: 2, column: 4, message: "bytes that are not UTF-8")) {
            try YAMLReader.value(Array("a: 1\nb: ".utf8) + [0xC3, 0x28])
        }
    }

    /// Billion laughs: ten aliases of ten aliases of ... stop at the expansion bound, quickly.
    @Test func aliasesThatExpandPastTheBound_areRefused() {
        var text = "a0: [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...9 {
            let previous = "*a\(level - 1)"
            text += "a\(level): &a\(level) [\(Array(repeating: previous, count: 10).joined(separator: ", "))]\n"
        }
        text = text.replacingOccurrences(of: "a0: [", with: "a0: &a0 [")
        #expect {
            try Self.read(text)
        } throws: { error in
            (error as? YAMLError)?.message.hasPrefix("aliases expand to too many values") == true
        }
    }

    @Test func nestingPastTheLimit_isRefused() {
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        #expect {
            try Self.read(deep)
        } throws: { error in
            (error as? YAMLError)?.message == "collections nest deeper than 512"
        }
        #expect(throws: Never.self) {
            try Self.read(String(repeating: "[", count: 500) + String(repeating: "]", count: 500))
        }
    }

    @Test func documents_areSplitByMarkers() throws {
        #expect(
            try YAMLReader.documents(Array("--- 1\n--- [2]\n...\n---\n".utf8)) == [
                .number(1), .array([.number(2)]), .null,
            ])
        #expect(try YAMLReader.documents(Array("# only a comment\n".utf8)) == [])
    }
}

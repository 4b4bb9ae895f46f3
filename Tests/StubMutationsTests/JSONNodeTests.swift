import Foundation
import StubTestSupport
import TestTurns
import Testing

@testable import StubMutations

@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct JSONNodeTests {
    /// Every JSON file of MockData reads, and writes back to the value Foundation reads from the original.
    @Test func everyJSONFileInMockData_readsAndWritesBackToTheSameValue() async throws {
        let folder = try #require(MockData.folder)
        let files = try #require(FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String])
            .filter { $0.hasSuffix(".json") }.sorted()
        #expect(files.count > 20)
        for (index, file) in files.enumerated() {
            if index.isMultiple(of: 10) { await Task.yield() }
            let bytes = try Data(contentsOf: folder.appendingPathComponent(file))
            guard let original = try? JSONSerialization.jsonObject(with: bytes, options: .fragmentsAllowed) else {
                #expect(JSONNode(parsing: Array(bytes)) == nil, "\(file): Foundation refuses it, so must we")
                continue
            }
            let node = try #require(JSONNode(parsing: Array(bytes)), "\(file)")
            let written = try JSONSerialization.jsonObject(with: Data(node.serialized), options: .fragmentsAllowed)
            #expect(try Self.canonical(written) == Self.canonical(original), "\(file)")
        }
    }

    /// A value as Foundation writes it with sorted keys: two values are the same when these bytes are.
    static func canonical(_ value: Any) throws -> Data {
        try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
    }

    @Test func keysKeepTheirOrder_andNumbersTheirText() throws {
        let node = try #require(
            JSONNode(parsing: Array(#" {"b": 1.50, "a": [true, null, -0, 2e3], "c": "\u00e9\n"} "#.utf8)))
        #expect(String(decoding: node.serialized, as: UTF8.self) == #"{"b":1.50,"a":[true,null,-0,2e3],"c":"é\n"}"#)
    }

    @Test(arguments: [
        "", "{", "[1,]", "{\"a\":1,}", "01", "1.", "-", "\"\u{01}\"", "\"\\x\"", "\"\\ud800\"", "tru", "[1] [2]",
        "{\"a\" 1}", "nul",
    ])
    func whatIsNotOneJSONText_isRefused(_ text: String) {
        #expect(JSONNode(parsing: Array(text.utf8)) == nil)
    }

    @Test func surrogatePairs_andAByteOrderMark_read() throws {
        let node = try #require(JSONNode(parsing: [0xEF, 0xBB, 0xBF] + Array(#"["\ud83c\udfb5"]"#.utf8)))
        #expect(node == .array([.string("🎵")]))
        #expect(JSONNode(parsing: [0x22, 0xFF, 0x22]) == nil, "bytes that are not UTF-8")
    }

    @Test func nestingDeeperThanTheLimit_isRefusedWithoutCrashing() {
        let deep =
            Array(repeating: UInt8(ascii: "["), count: 100_000) + Array(repeating: UInt8(ascii: "]"), count: 100_000)
        #expect(JSONNode(parsing: deep) == nil)
        let fits = Array(repeating: UInt8(ascii: "["), count: 200) + Array(repeating: UInt8(ascii: "]"), count: 200)
        #expect(JSONNode(parsing: fits) != nil)
    }
}

import Foundation
import TestTurns
import Testing

@testable import StubCore

/// Draws and faults in the journal's JSON: names, not numbers or nested objects; a draw that sent the answer has
/// no `fault`.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct JournalDrawCodingTests {
    @Test(arguments: [
        (JournalEntry.Draw(delayMs: 12), #"{"delayMs":12}"#),
        (JournalEntry.Draw(fault: .reset, source: .chaos), #"{"fault":"reset","source":"chaos"}"#),
        (JournalEntry.Draw(fault: .hang, source: .faults), #"{"fault":"hang","source":"faults"}"#),
    ])
    func aDraw_isSpelledByName(draw: JournalEntry.Draw, json: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(String(decoding: try encoder.encode(draw), as: UTF8.self) == json)
        #expect(try JSONDecoder().decode(JournalEntry.Draw.self, from: Data(json.utf8)) == draw)
    }

    @Test func anUnknownFault_failsToDecodeAtItsKey() {
        #expect {
            try JSONDecoder().decode(JournalEntry.Draw.self, from: Data(#"{"fault":"explode"}"#.utf8))
        } throws: { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return false }
            return context.codingPath.map(\.stringValue) == ["fault"]
        }
    }

    @Test(arguments: StubVariant.Fault.allCases)
    func aFault_isItsName(fault: StubVariant.Fault) throws {
        #expect(String(decoding: try JSONEncoder().encode([fault]), as: UTF8.self) == "[\"\(fault.rawValue)\"]")
    }
}

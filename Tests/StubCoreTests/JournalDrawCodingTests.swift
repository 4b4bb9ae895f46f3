import Foundation
import Testing

@testable import StubCore

/// Typed draws and faults keep the journal's JSON as it was: names, not numbers or nested objects.
struct JournalDrawCodingTests {
    @Test(arguments: [
        (JournalEntry.Draw(outcome: .answer, delayMs: 12), #"{"delayMs":12,"outcome":"answer"}"#),
        (JournalEntry.Draw(outcome: .fault(.reset), source: .chaos), #"{"outcome":"reset","source":"chaos"}"#),
        (JournalEntry.Draw(outcome: .fault(.hang), source: .faults), #"{"outcome":"hang","source":"faults"}"#),
    ])
    func aDraw_isSpelledAsBefore(draw: JournalEntry.Draw, json: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(String(decoding: try encoder.encode(draw), as: UTF8.self) == json)
        #expect(try JSONDecoder().decode(JournalEntry.Draw.self, from: Data(json.utf8)) == draw)
    }

    @Test func anUnknownOutcome_failsToDecodeNamingIt() {
        #expect {
            try JSONDecoder().decode(JournalEntry.Draw.self, from: Data(#"{"outcome":"explode"}"#.utf8))
        } throws: { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return false }
            return context.debugDescription == #""explode" is neither answer nor a fault"#
        }
    }

    @Test(arguments: StubVariant.Fault.allCases)
    func aFault_isItsName(fault: StubVariant.Fault) throws {
        #expect(String(decoding: try JSONEncoder().encode([fault]), as: UTF8.self) == "[\"\(fault.rawValue)\"]")
    }
}

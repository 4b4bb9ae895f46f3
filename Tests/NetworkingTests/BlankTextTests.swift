import Foundation
import Networking
import TestTurns
import Testing

/// Text that shows nothing reads as missing: what a screen would show blank is blank.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct BlankTextTests {
    @Test(arguments: [
        "", " ", "\t\n", "\u{200B}\u{200C}\u{200D}\u{2060}\u{FEFF}", "\u{202E}", "\u{00A0}\u{3000}", "\u{0000}",
        "\u{2028}\u{2029}",
    ])
    func textOfNothingVisible_isBlank(_ text: String) {
        #expect(text.isBlank, "\(text.debugDescription)")
    }

    @Test(arguments: ["a", " a ", "\u{202E}مرحبا", "Z\u{0351}", "🎵", "before\u{0000}after", "0", "\u{200B}x"])
    func textWithAVisibleCharacter_isNotBlank(_ text: String) {
        #expect(!text.isBlank, "\(text.debugDescription)")
    }

    private struct Named: Decodable {
        var name: String?

        init(from decoder: any Decoder) throws {
            name = try decoder.container(keyedBy: AnyKey.self).lenientString(AnyKey(stringValue: "name"))
        }

        struct AnyKey: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
    }

    @Test(arguments: [
        (#"{"name": "\u200b\u200c\ufeff"}"#, nil), (#"{"name": "  "}"#, nil), (#"{"name": " Blue "}"#, "Blue"),
        (#"{"name": 7}"#, "7"), (#"{}"#, nil),
    ])
    func aLenientString_readsBlankAsMissing(_ json: String, _ expected: String?) throws {
        #expect(try JSONDecoder().decode(Named.self, from: Data(json.utf8)).name == expected)
    }
}

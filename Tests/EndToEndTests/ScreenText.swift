import Foundation
import Testing

/// What a screen may show after a load, checked in the sweeps: text a person can read, never a value's debug form
/// or a decoder's message.
enum ScreenText {
    /// Words that mean a missing value leaked onto the screen.
    static let leaks = [
        "Optional(", "<null>", "keyNotFound", "typeMismatch", "valueNotFound", "dataCorrupted",
        "CodingKeys", "DecodingError",
    ]
    /// Whole words that mean the same, when they are all the text (an album may be called "Null").
    static let alone = ["nil", "null", "(null)", "NaN"]

    /// Whether `text` has a character a person can see: not only spaces, line breaks, zero-width and other format
    /// characters (a direction mark, a byte-order mark) or control characters.
    static func isVisible(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            switch scalar.properties.generalCategory {
            case .spaceSeparator, .lineSeparator, .paragraphSeparator, .format, .control: false
            default: true
            }
        }
    }

    /// Records an issue naming `what` and `mutant` when `text` shows nothing (`isVisible`) or carries a leak or a
    /// replacement character (U+FFFD: bytes that were not text).
    static func expectReadable(
        _ text: String, _ what: String, mutant: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let leak = leaks.first { text.contains($0) } ?? alone.first { trimmed == $0 }
        #expect(
            isVisible(text), "\(mutant): \(what) shows nothing: \(text.debugDescription.prefix(200))",
            sourceLocation: sourceLocation)
        #expect(
            leak == nil, "\(mutant): \(what) shows \(leak ?? ""): \(text.prefix(200))", sourceLocation: sourceLocation)
        #expect(
            !text.unicodeScalars.contains("\u{FFFD}"), "\(mutant): \(what) shows U+FFFD: \(text.prefix(200))",
            sourceLocation: sourceLocation)
    }
}

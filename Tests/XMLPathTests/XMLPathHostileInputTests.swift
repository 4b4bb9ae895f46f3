import Foundation
import TestTurns
import Testing

@testable import XMLPath

/// Bytes from a network, a proxy or a fixture: every input ends in events or an `XMLPathError`, never a crash.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct XMLPathHostileInputTests {
    private static func parser() -> XMLPathParser {
        var parser = XMLPathParser(recordPath: "feed.entry")
        parser.text("feed.entry.title", as: "title")
        parser.element("feed.entry.link@href", as: "link")
        return parser
    }

    private func parse(_ bytes: [UInt8]) -> Result<[XMLPathParser.Event], XMLPathError> {
        var events: [XMLPathParser.Event] = []
        do throws(XMLPathError) {
            try Self.parser().parse(Data(bytes)) { events.append($0) }
            return .success(events)
        } catch {
            return .failure(error)
        }
    }

    /// `prefix`, then raw bytes, then `suffix`.
    private static func bytes(_ prefix: String, _ raw: [UInt8] = [], _ suffix: String = "") -> [UInt8] {
        Array(prefix.utf8) + raw + Array(suffix.utf8)
    }

    private func parse(_ text: String) -> Result<[XMLPathParser.Event], XMLPathError> {
        parse(Array(text.utf8))
    }

    static let crashers: [([UInt8], String)] = [
        (Self.bytes("<", [0xFF], "?>>"), "not UTF-8"),
        (Self.bytes("<feed>&a", [0xFF], ";</feed>"), "not UTF-8"),
        (Self.bytes("<feed><!-- ", [0xE9], " --></feed>"), "not UTF-8"),
    ]

    static let malformed: [([UInt8], String, Int)] = [
        (Self.bytes("<feed>", [0xC3], "</feed>"), "not UTF-8", 1),
        (Self.bytes("<feed a=\"", [0xFF], "\"/>"), "not UTF-8", 1),
        (Self.bytes("<feed>\n\n", [0xED, 0xA0, 0x80], "</feed>"), "not UTF-8", 3),
        (Self.bytes("<feed>\u{01}</feed>"), "control character", 1),
        (Self.bytes("<?m?>"), "no root element", 1),
        (Self.bytes(""), "empty", 1),
        (Self.bytes("  \n "), "no root element", 2),
        (Self.bytes("<!DOCTYPE feed [<!ENTITY a \"b\">]><feed>&a;</feed>"), "document type declarations", 1),
        (Self.bytes("<feed><!DOCTYPE x></feed>"), "markup declarations", 1),
        (Self.bytes("<feed>&nbsp;</feed>"), "undefined or invalid entity reference &nbsp;", 1),
        (Self.bytes("<feed>&#0;</feed>"), "invalid entity reference", 1),
        (Self.bytes("<feed>&#xD800;</feed>"), "invalid entity reference", 1),
        (Self.bytes("<feed>&amp</feed>"), "malformed entity reference", 1),
        (Self.bytes("<feed><entry>"), "ended early", 1),
        (Self.bytes("<feed><entry></feed>"), "does not match", 1),
        (Self.bytes("<feed a=\"1\" a=\"2\"/>"), "appears twice", 1),
        (Self.bytes("<feed a=1/>"), "must be quoted", 1),
        (Self.bytes("<feed a=\"<\"/>"), "< is not allowed", 1),
        (Self.bytes("<feed/><feed/>"), "after the root element", 1),
        (Self.bytes("text<feed/>"), "before the root element", 1),
        (Self.bytes("<feed>]]></feed>"), "]]>", 1),
        (Self.bytes("<feed><!-- a -- b --></feed>"), "-- is not allowed", 1),
        (Self.bytes("<feed><![CDATA[open</feed>"), "unclosed CDATA", 1),
        (Self.bytes("<feed><?xml version=\"1.0\"?></feed>"), "only allowed at the start", 1),
        (Self.bytes("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><feed/>"), "encoding ISO-8859-1", 1),
        (Self.bytes("<?xml version=\"1.0\" encoding=\"UTF-16\"?><feed/>"), "must be UTF-8", 1),
        (Self.bytes("<1feed/>"), "expected an element name", 1),
    ]

    /// Each of these crashed the whole process through Foundation's `XMLParser` on Linux (found by fuzzing).
    @Test(arguments: Self.crashers)
    func bytesThatCrashedXMLParser_areATypedError(_ bytes: [UInt8], message: String) {
        guard case .failure(let error) = parse(bytes) else {
            Issue.record("expected an error")
            return
        }
        #expect(error.message.contains(message), "\(error)")
    }

    /// A processing instruction without data is well-formed: it is read past, before, inside and after the root.
    @Test(arguments: [
        "<?m?><feed><entry><title>A</title></entry></feed>",
        "<feed><?m?><entry><title>A</title><?m data?></entry></feed>",
        "<feed><entry><title>A</title></entry></feed><?m?>",
    ])
    func processingInstructions_areReadPast(_ xml: String) throws {
        #expect(try parse(xml).get() == [.recordStart, .text(key: "title", value: "A"), .recordEnd])
    }

    @Test(arguments: Self.malformed)
    func malformedDocuments_areATypedErrorWithTheLine(_ bytes: [UInt8], message: String, line: Int) {
        guard case .failure(let error) = parse(bytes) else {
            Issue.record("expected an error for \(String(decoding: bytes, as: UTF8.self).debugDescription)")
            return
        }
        #expect(error.message.contains(message), "\(error)")
        #expect(error.line == line, "\(error)")
    }

    @Test(arguments: [100, 10_000, 200_000])
    func deepNesting_isAnErrorBeyondTheLimit_neverAStackOverflow(_ depth: Int) {
        let xml = String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
        switch parse(xml) {
        case .success: #expect(depth <= XMLPathParser.maxDepth)
        case .failure(let error):
            #expect(depth > XMLPathParser.maxDepth)
            #expect(error.message.contains("nest deeper than"))
        }
    }

    @Test(arguments: ["<feed><entry><title>A</title>", "<feed><entry><ti", "<feed><entry a=\"x", "<fe"])
    func truncatedDocuments_areATypedError(_ xml: String) {
        guard case .failure = parse(xml) else {
            Issue.record("expected an error")
            return
        }
    }

    /// Character references up to 8 digits, hex or decimal, naming a character XML allows.
    @Test(arguments: [
        ("&#x0010FFFF;", "\u{10FFFF}"), ("&#x00000041;", "A"), ("&#x10FFFF;", "\u{10FFFF}"), ("&#x41;", "A"),
        ("&#x10000;", "\u{10000}"), ("&#xFFFD;", "\u{FFFD}"), ("&#xE000;", "\u{E000}"), ("&#xD7FF;", "\u{D7FF}"),
        ("&#x9;", "\t"), ("&#1114111;", "\u{10FFFF}"), ("&#01114111;", "\u{10FFFF}"), ("&#00000065;", "A"),
        ("&#32;", " "),
    ])
    func characterReferences_upToEightDigits_areTheirCharacter(_ reference: String, expected: String) throws {
        let xml = "<feed><entry><title>[\(reference)]</title></entry></feed>"
        #expect(try parse(xml).get() == [.recordStart, .text(key: "title", value: "[\(expected)]"), .recordEnd])
    }

    /// Past 8 digits (even with leading zeros), past U+10FFFF, or naming a character XML forbids: refused.
    @Test(arguments: [
        "&#x000000041;", "&#x00110000;", "&#x110000;", "&#xFFFFFFFF;", "&#x;", "&#xFFFE;", "&#xD800;",
        "&#xDFFF;", "&#x1F;", "&#000000065;", "&#1114112;", "&#4294967296;", "&#;", "&#-65;", "&#x-41;",
    ])
    func characterReferences_beyondTheLimits_areRefused(_ reference: String) {
        guard case .failure(let error) = parse("<feed><entry><title>\(reference)</title></entry></feed>") else {
            Issue.record("\(reference) was accepted")
            return
        }
        // Too long to be a reference at all ("malformed"), or naming no character XML allows ("invalid ... &#...;").
        #expect(error.message.hasSuffix("entity reference") || error.message.hasSuffix(reference), "\(error)")
    }

    @Test func declaredUTF8_aByteOrderMark_referencesAndCDATA_areRead() throws {
        let xml =
            "\u{FEFF}<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<!-- c --><feed><entry>"
            + "<title> caf&#233; &amp; &#x1F3B8;<![CDATA[ <raw> ]]>&lt;&quot;&apos;&gt; </title>"
            + "<link href=\"a&amp;b\tc\"/></entry></feed>\n"
        #expect(
            try parse(xml).get() == [
                .recordStart, .text(key: "title", value: "café & 🎸 <raw> <\"'>"),
                .element(key: "link", attributes: ["href": "a&b c"], text: ""), .recordEnd,
            ])
    }
}

import TestTurns
import Testing

@testable import StubCore

/// What a body holds is read from its bytes first: real APIs label JSON `text/javascript` or `text/html`.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct BodyKindTests {
    @Test(
        arguments: [
            (#"{"a": 1}"#, "text/javascript; charset=utf-8", BodyKind.json),
            (#"{"a": 1}"#, "text/plain", .json),
            (#"{"a": 1}"#, "text/html", .json),
            ("\u{FEFF}  [1, 2]", nil, .json),
            (#"{"a": 1}"#, "application/json; charset=utf-8", .json),
            (#"{"n": {{query.n}}}"#, "text/javascript", .json),
            ("{", "application/json", .json),
            ("<?xml version=\"1.0\"?><feed/>", "text/plain", .xml),
            ("  <feed><entry/></feed>", nil, .xml),
            ("<!DOCTYPE html><html></html>", "application/json", .html),
            ("<HTML><body>Service Unavailable</body></HTML>", "text/javascript", .html),
            ("not quite", "application/xml", .xml),
            ("Hello {{query.name}}", "text/html", .html),
            ("hello", "text/plain", .text),
            ("hello", nil, .text),
            ("", "application/json", .empty),
        ] as [(String, String?, BodyKind)])
    func kind_isReadFromTheBytesThenTheLabel(body: String, type: String?, kind: BodyKind) {
        #expect(BodyKind(Array(body.utf8), contentType: type) == kind)
    }

    /// `00 31` is `1` in UTF-16, which JSON on the network never is (found by the stub-server fuzz target): a
    /// body labelled JSON is JSON, one not labelled is text.
    @Test func utf16JSON_isJSONOnlyByItsLabel() {
        let body: [UInt8] = [0x00, 0x31]
        #expect(BodyKind(body, contentType: "application/json") == .json, "the label decides")
        #expect(BodyKind(body, contentType: nil) == .text)
    }

    @Test func bytesThatAreNotUTF8_areBinary() {
        #expect(BodyKind([0x89, 0x50, 0x4E, 0x47, 0xFF, 0xFE], contentType: "image/png") == .binary)
        #expect(BodyKind([0xFF, 0xD8, 0xFF], contentType: nil) == .binary)
    }

    @Test func aTemplatedVariantKnowsItsKind_andFollowsItsBodyAndLabel() {
        var variant = StubVariant(body: Array(#"{"a": 1}"#.utf8))
        #expect(variant.templateKind == nil, "only templates are read at load")
        variant.template = true
        #expect(variant.templateKind == .json)
        variant.body = Array("<feed/>".utf8)
        #expect(variant.templateKind == .xml)
        variant.body = Array("plain".utf8)
        #expect(variant.templateKind == .text)
        variant.headers = [HeaderField(name: "Content-Type", value: "text/html")]
        #expect(variant.templateKind == .html)
    }
}

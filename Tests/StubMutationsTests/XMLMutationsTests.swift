import Foundation
import HTTPMessages
import StubTestSupport
import TestTurns
import Testing

@testable import StubMutations

/// The mutants of an XML answer: per element path, removed, twice, text emptied, text huge; the bytes they do not
/// change kept as written.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct XMLMutationsTests {
    static let xml = HTTPHeaders([("Content-Type", "application/xml")])

    static func answer(_ text: String) -> MutableAnswer {
        MutableAnswer(status: 200, headers: xml, body: Array(text.utf8))
    }

    static func mutated(_ id: String, of text: String) throws -> String {
        let answer = answer(text)
        let mutant = try #require(Mutations.mutant(id, of: answer), "no mutant \(id)")
        guard case .answer(let mutated) = mutant.apply(to: answer) else {
            Issue.record("\(id) is not an answer")
            return ""
        }
        return String(decoding: mutated.body, as: UTF8.self)
    }

    static let feed = """
        <?xml version="1.0" encoding="utf-8"?>
        <!-- the feed -->
        <feed xmlns:im="http://itunes.apple.com/rss"><title>Top</title>\
        <entry><im:name>A</im:name><link href="a?x=1&amp;y=>" rel="alternate"/></entry>\
        <entry><im:name><![CDATA[B <b>]]></im:name><link href="b"/></entry></feed>
        """

    @Test func aFeed_hasElementMutantsPerPath_afterTheWholeAnswerOnes() {
        let ids = Mutations.of(Self.answer(Self.feed)).map(\.id)
        #expect(ids.prefix(WholeChange.all.count) == WholeChange.all.map(\.id)[...])
        #expect(
            Array(ids.dropFirst(WholeChange.all.count)) == [
                "/feed/title:removed", "/feed/title:text-empty", "/feed/title:duplicated", "/feed/title:text-huge",
                "/feed/entry:removed", "/feed/entry:duplicated",
                "/feed/entry/im:name:removed", "/feed/entry/im:name:text-empty", "/feed/entry/im:name:duplicated",
                "/feed/entry/im:name:text-huge",
                "/feed/entry/link:removed", "/feed/entry/link:duplicated",
            ])
    }

    @Test(arguments: [
        (
            "/feed/entry/im:name:removed",
            #"<feed xmlns:im="http://itunes.apple.com/rss"><title>Top</title><entry><link href="a?x=1&amp;y=>" rel="alternate"/></entry><entry><link href="b"/></entry></feed>"#
        ),
        (
            "/feed/entry/im:name:text-empty",
            #"<feed xmlns:im="http://itunes.apple.com/rss"><title>Top</title><entry><im:name></im:name><link href="a?x=1&amp;y=>" rel="alternate"/></entry><entry><im:name></im:name><link href="b"/></entry></feed>"#
        ),
        (
            "/feed/entry/link:duplicated",
            #"<feed xmlns:im="http://itunes.apple.com/rss"><title>Top</title><entry><im:name>A</im:name><link href="a?x=1&amp;y=>" rel="alternate"/><link href="a?x=1&amp;y=>" rel="alternate"/></entry><entry><im:name><![CDATA[B <b>]]></im:name><link href="b"/><link href="b"/></entry></feed>"#
        ),
        (
            "/feed/entry:removed",
            #"<feed xmlns:im="http://itunes.apple.com/rss"><title>Top</title></feed>"#
        ),
    ])
    func eachChange_rewritesOnlyItsElements(_ id: String, _ expectedRoot: String) throws {
        let text = try Self.mutated(id, of: Self.feed)
        #expect(text.hasPrefix("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<!-- the feed -->\n"), "the prolog is kept")
        #expect(text.components(separatedBy: "\n").last == expectedRoot)
        #expect(XMLOutline(parsing: Array(text.utf8)) != nil, "still one well-formed element")
    }

    @Test func textHuge_puts100000CharactersInEveryElement() throws {
        let text = try Self.mutated("/feed/title:text-huge", of: Self.feed)
        #expect(text.contains("<title>" + String(repeating: "x", count: 100_000) + "</title>"))
    }

    @Test(arguments: [
        "<a>", "<a></b>", "<a/><b/>", "text<a/>", "<a>x</a>trailing", "<a><!-- open</a>", "<a b=\"1></a>", "</a>", "",
        "<>", "<a><![CDATA[x</a>",
    ])
    func aBodyThatIsNotOneElement_getsTheWholeAnswerMutantsOnly(_ body: String) {
        // An empty body is not emptied or cut: those change nothing in it.
        let unchanging = body.isEmpty ? 2 : 0
        #expect(Mutations.of(Self.answer(body)).count == WholeChange.all.count - unchanging, "\(body.debugDescription)")
    }

    @Test func aDoctypeWithAnInternalSubset_andABOM_areRead() {
        let body = "\u{FEFF}<!DOCTYPE a [<!ENTITY e \"x>y\">]><a><b>1</b></a>"
        #expect(Mutations.of(Self.answer(body)).dropFirst(WholeChange.all.count).map(\.id).first == "/a/b:removed")
    }

    @Test func nestingPastTheLimit_isNotRead() {
        let deep =
            String(repeating: "<a>", count: XMLOutline.depthLimit + 1)
            + String(repeating: "</a>", count: XMLOutline.depthLimit + 1)
        #expect(XMLOutline(parsing: Array(deep.utf8)) == nil)
        let atLimit =
            String(repeating: "<a>", count: XMLOutline.depthLimit)
            + String(repeating: "</a>", count: XMLOutline.depthLimit)
        #expect(XMLOutline(parsing: Array(atLimit.utf8)) != nil)
    }

    @Test func mockDatasTopSongs_everyElementMutantDiffersAndIsWellFormed() throws {
        let folder = try #require(MockData.folder)
        let body = Array(try Data(contentsOf: folder.appendingPathComponent("top-songs/topsongs.good.xml")))
        let answer = MutableAnswer(status: 200, headers: Self.xml, body: body)
        let mutants = Mutations.of(answer).dropFirst(WholeChange.all.count)
        #expect(mutants.count >= 90)
        #expect(Set(mutants.map(\.id)).count == mutants.count)
        for mutant in mutants {
            guard case .answer(let mutated) = mutant.apply(to: answer) else {
                Issue.record("\(mutant.id) is not an answer")
                continue
            }
            #expect(mutated.body != body, "\(mutant.id) changes nothing")
            if mutant.id.hasSuffix(":text-huge") {
                // Megabytes each: their size says it (reading them all again takes most of a minute in a debug build).
                #expect(mutated.body.count > body.count + 90_000, "\(mutant.id)")
            } else {
                #expect(XMLOutline(parsing: mutated.body) != nil, "\(mutant.id) is not well formed")
            }
        }
    }
}

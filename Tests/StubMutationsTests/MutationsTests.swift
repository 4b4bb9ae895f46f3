import Foundation
import HTTPMessages
import StubTestSupport
import TestTurns
import Testing

@testable import StubMutations

@Suite(.takesTurns(.heavy), .timeLimit(.minutes(1)))
struct MutationsTests {
    static let json = HTTPHeaders([("Content-Type", "application/json")])

    /// MockData's top albums feed (108 KB, 100 albums), the good answer the sweep of the albums screen starts from.
    static func topAlbums() throws -> MutableAnswer {
        let folder = try #require(MockData.folder)
        let body = try Data(contentsOf: folder.appendingPathComponent("albums/top-albums.good.json"))
        return MutableAnswer(status: 200, headers: json, body: Array(body))
    }

    static func answer(_ text: String) -> MutableAnswer {
        MutableAnswer(status: 200, headers: json, body: Array(text.utf8))
    }

    static func body(_ mutated: MutatedAnswer) -> String? {
        guard case .answer(let answer) = mutated else { return nil }
        return String(decoding: answer.body, as: UTF8.self)
    }

    @Test func theAlbumsFeed_hasMoreThan150Mutants_withUniqueIDsInTheSameOrderEachTime() throws {
        let answer = try Self.topAlbums()
        let mutants = Mutations.of(answer)
        #expect(mutants.count >= 150)
        #expect(Set(mutants.map(\.id)).count == mutants.count, "IDs are unique")
        #expect(Mutations.of(answer).map(\.id) == mutants.map(\.id), "the same list on a second run")
        #expect(mutants.allSatisfy { !$0.description.isEmpty && !$0.id.contains(" ") })
        #expect(mutants.prefix(3).map(\.id) == ["body:empty", "body:truncated-half", "body:null"])
        for id in [
            "feed.results[*].name:removed", "feed.results[*].name:null", "feed.results[*].name:as-number",
            "feed.results[*].releaseDate:date-garbage", "feed.results[*].artistUrl:url-javascript",
            "feed.results:one", "feed.results:empty", "feed.results[*].genres:first-duplicated",
            "feed:unknown-key", "status:429", "fault:reset",
        ] {
            #expect(mutants.contains { $0.id == id }, "\(id)")
        }
    }

    /// Every value mutant of the feed cut to its first three albums (the whole feed's 440 cost a debug build most
    /// of a minute) is JSON and differs from it.
    @Test func everyValueMutant_isJSON_andChangesTheAnswer() throws {
        let full = try Self.topAlbums()
        var feed = try #require(try JSONSerialization.jsonObject(with: Data(full.body)) as? [String: Any])
        var inner = try #require(feed["feed"] as? [String: Any])
        inner["results"] = Array(try #require(inner["results"] as? [Any]).prefix(3))
        feed["feed"] = inner
        let answer = MutableAnswer(
            status: 200, headers: Self.json, body: Array(try JSONSerialization.data(withJSONObject: feed)))
        let original = try JSONSerialization.jsonObject(with: Data(answer.body)) as? NSDictionary
        for mutant in Mutations.of(answer) where !mutant.id.contains(":") || mutant.id.hasPrefix("feed") {
            guard case .answer(let mutated) = mutant.apply(to: answer) else {
                Issue.record("\(mutant.id) broke the connection")
                continue
            }
            let value = try? JSONSerialization.jsonObject(with: Data(mutated.body), options: .fragmentsAllowed)
            #expect(value != nil, "\(mutant.id) is not JSON")
            #expect((value as? NSDictionary) != original, "\(mutant.id) changed nothing")
        }
    }

    @Test func aPathThroughEveryElement_changesEachOne() throws {
        let answer = Self.answer(#"{"items":[{"name":"a","n":1},{"name":"b","n":2},{"n":3}]}"#)
        let mutants = Mutations.of(answer)
        func applied(_ id: String) throws -> String? {
            Self.body(try #require(mutants.first { $0.id == id }).apply(to: answer))
        }
        #expect(try applied("items[*].name:removed") == #"{"items":[{"n":1},{"n":2},{"n":3}]}"#)
        #expect(try applied("items[*].name:null") == #"{"items":[{"name":null,"n":1},{"name":null,"n":2},{"n":3}]}"#)
        #expect(try applied("items[*].n:2^53+1")?.contains("9007199254740993") == true, "no Double in between")
        #expect(try applied("items[*].n:fraction")?.contains(#""n":0.5"#) == true)
        #expect(try applied("items:one") == #"{"items":[{"name":"a","n":1}]}"#)
        #expect(try applied("items:first-duplicated")?.hasPrefix(#"{"items":[{"name":"a","n":1},{"name":"a""#) == true)
        #expect(try applied("items[*]:unknown-key")?.contains(#""x-unexpected-key":"unexpected""#) == true)
    }

    @Test func wholeAnswerMutants_breakTheAnswerAsTheySay() throws {
        let answer = Self.answer(#"{"a":"b"}"#)
        func applied(_ id: String) throws -> MutatedAnswer {
            try #require(Mutations.mutant(id, of: answer)).apply(to: answer)
        }
        guard case .answer(let html) = try applied("body:html-error-page") else { throw Failure("not an answer") }
        #expect(html.status == 200 && html.headers["Content-Type"]?.hasPrefix("text/html") == true)
        guard case .answer(let limited) = try applied("status:429") else { throw Failure("not an answer") }
        #expect(limited.status == 429 && limited.headers["Retry-After"] == "1")
        guard case .answer(let moved) = try applied("status:301") else { throw Failure("not an answer") }
        #expect(moved.status == 301 && moved.headers["Location"] == nil && moved.body.isEmpty)
        guard case .answer(let untyped) = try applied("content-type:removed") else { throw Failure("not an answer") }
        #expect(untyped.headers["Content-Type"] == nil && untyped.body == answer.body)
        guard case .answer(let broken) = try applied("body:invalid-utf8") else { throw Failure("not an answer") }
        #expect(broken.body == Array(#"{""#.utf8) + [0xFF] + Array(#"a":"b"}"#.utf8), "inside the first string")
        guard case .answer(let late) = try applied("delay:past-timeout") else { throw Failure("not an answer") }
        #expect(late.delayMs == 61_000)
        #expect(try applied("fault:hang") == .fault("hang"))
    }

    @Test(arguments: ["plain text", "<feed><entry/>", "", "[1,2,", #"{"a":1}x"#])
    func aBodyThatIsNeitherJSONNorXML_hasTheWholeAnswerMutantsOnly(_ body: String) {
        let mutants = Mutations.of(Self.answer(body))
        // An empty body is not emptied or cut: those change nothing in it.
        let unchanging = body.isEmpty ? ["body:empty", "body:truncated-half"] : []
        #expect(mutants.map(\.id) == WholeChange.all.map(\.id).filter { !unchanging.contains($0) })
    }

    /// Whole-body changes claim bytes: `body:bom` of a JSON body is listed and served though a decoder that skips a
    /// byte-order mark reads the same document (it was dropped as changing nothing), and `body:truncated-half` of
    /// `{}` and spaces is listed though the half left is `{}`.
    @Test(arguments: [(#"{"a":1}"#, "body:bom"), ("{}      ", "body:truncated-half")])
    func aBodyChangeThatADecoderReadsPast_isListed(_ body: String, _ id: String) throws {
        let answer = Self.answer(body)
        #expect(Mutations.of(answer).contains { $0.id == id })
        let mutant = try #require(Mutations.mutant(id, of: answer))
        guard case .answer(let served) = mutant.apply(to: answer) else { throw Failure("not an answer") }
        #expect(served.body != answer.body)
    }

    /// A value change that changes nothing here is not listed and its ID is refused: a zero made zero, a list of one
    /// kept to one, an empty string emptied; also where `[*]` reaches elements without the key, or that are no object.
    @Test(arguments: ["n:zero", "list:one", "s:empty", "items[*].a:zero"])
    func aValueChangeThatChangesNothing_isNotListed(_ id: String) {
        let answer = Self.answer(#"{"n":0,"list":[1],"s":"","items":[{"a":0},{"b":1},5]}"#)
        #expect(!Mutations.of(answer).contains { $0.id == id || $0.aliases.contains(id) })
        #expect(Mutations.mutant(id, of: answer) == nil)
        #expect(Mutations.of(answer).contains { $0.id == "n:minus-one" }, "a change that changes something is")
    }

    /// Text is compared byte for byte: `é` and `e` with a combining accent are canonically equal `String`s, and
    /// different bytes on the wire.
    @Test func canonicallyEquivalentText_isNotTheSameValue() {
        #expect(JSONNode.string("\u{E9}") != JSONNode.string("e\u{301}"))
        #expect(JSONNode.object([(key: "\u{E9}", value: .null)]) != JSONNode.object([(key: "e\u{301}", value: .null)]))
    }

    @Test func keysThatLookLikePaths_getNamesOfTheirOwn() {
        let mutants = Mutations.of(Self.answer(#"{"a.b":1,"a":{"b":2,"c":3},"":3,"x y":4}"#))
        #expect(Set(mutants.map(\.id)).count == mutants.count)
        #expect(mutants.contains { $0.id == #"["a.b"]:removed"# })
        #expect(mutants.contains { $0.id == "a.b:removed" })
        #expect(mutants.contains { $0.id == #"[""]:removed"# })
        #expect(mutants.contains { $0.id == #"["x y"]:zero"# })
    }

    @Test func aDocumentWithMoreMutantsThanTheCap_isCutEvenly() {
        let fields = (0..<800).map { #""k\#($0)":"v""# }.joined(separator: ",")
        let mutants = Mutations.of(Self.answer("{\(fields)}"))
        #expect(mutants.count == Mutations.cap)
        #expect(mutants.contains { $0.id.hasPrefix("k0:") } && mutants.contains { $0.id.hasPrefix("k799:") })
    }

    struct Failure: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }
}

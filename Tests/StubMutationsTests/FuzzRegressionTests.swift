import Foundation
import HTTPMessages
import Testing

@testable import StubMutations

/// Inputs the mutations fuzz target crashed on, each kept with the property it broke.
@Suite(.timeLimit(.minutes(1)))
struct FuzzRegressionTests {
    /// A top-level `body` key's mutants were named like the whole answer's (`body:empty`, `body:null`): two mutants
    /// under one ID. The document's key is quoted now, as an odd key is.
    @Test func aTopLevelKeyNamedLikeAWholeAnswerChange_isQuoted() throws {
        let body = Array(
            (#"{"body":{"title":"Top Albums","updated":"2(24-05-17T10:00:00Z","results":[{"id":"1","name":"Harbor","#
                + #""artworkUrl100":"https://a.example/1.png","genres":[{"genreId":"14","name":"Pop"}]},"#
                + #"{"id":"2","na}e":null}]}}"#).utf8)
        let answer = MutableAnswer(
            status: 200, headers: HTTPHeaders([("Content-Type", "application/json")]), body: body)
        let mutants = Mutations.of(answer)
        let counts = Dictionary(grouping: mutants.map(\.id), by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
        #expect(counts == [])
        #expect(Set(mutants.map(\.id)).count == mutants.count)
        #expect(Mutations.of(answer).map(\.id) == mutants.map(\.id))
        let ids = Set(mutants.map(\.id))
        #expect(ids.contains("body:empty") && ids.contains(#"["body"]:empty"#))
        #expect(
            ids.contains(#"["body"].results[*]["na}e"]:removed"#) || ids.contains(#"["body"].results[*]["na}e"]:null"#))
    }

    @Test(arguments: ["status", "fault", "delay", "content-type"])
    func everyWholeChangeName_isQuotedAtTheTop(key: String) {
        let body = Array(#"{"\#(key)": 1, "nested": {"\#(key)": 2}}"#.utf8)
        let answer = MutableAnswer(status: 200, headers: HTTPHeaders(), body: body)
        let ids = Mutations.of(answer).map(\.id)
        #expect(Set(ids).count == ids.count)
        #expect(ids.contains(#"["\#(key)"]:removed"#))
        #expect(ids.contains("nested.\(key):removed"), "only the top level is quoted")
    }
}

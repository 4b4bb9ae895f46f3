import Foundation
import HTTPMessages
import TestTurns
import Testing

@testable import StubMutations

/// Inputs the mutations fuzz target crashed on, each kept with the property it broke.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
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
        // `nested` has one key, so removing it serves what emptying `nested` serves: listed once, both IDs resolve.
        let nested = Mutations.of(answer).first { $0.id == "nested:empty" }
        #expect(nested?.aliases == ["nested.\(key):removed"], "only the top level is quoted")
        #expect(Mutations.mutant("nested.\(key):removed", of: answer)?.id == "nested:empty")
    }

    /// The stream-mutations target told a WebSocket message's mutants apart by what their IDs contain, and a JSON key
    /// holding `message[2]:then-close-1008` made a value's mutant look like a close after message 3 (CI's fuzz step,
    /// 2026-11-29). The package was right: the key is quoted, the IDs are unique and each finds its own mutant. The
    /// target now tells mutants by their change. The same input showed a top-level array's elements named
    /// `message[2].$[*]`; they are `message[2][*]` now, as an event's data is `data(type)[*]`.
    @Test func aKeyThatReadsLikeAMessageMutant_staysAValueMutant() throws {
        let conversation = MutableConversation(steps: [
            .send(.text("plain"), delayMs: 0),
            .reply(on: 0, send: [.text(#"[1, {"a message[2]:then-close-1008 b": null}]"#), .text("")], delayMs: 0),
            .drop(afterMs: 0),
        ])
        let mutants = ConversationMutations.of(conversation)
        #expect(Set(mutants.map(\.id)).count == mutants.count)
        let id = #"message[2][*]["a message[2]:then-close-1008 b"]:removed"#
        let mutant = try #require(ConversationMutations.mutant(id, of: conversation), "ids: \(mutants.map(\.id))")
        guard case .conversation(.json(2, _, .removed)) = mutant.change else {
            Issue.record("\(id) is \(mutant.change)")
            return
        }
        let mutated = mutant.apply(to: conversation)
        #expect(mutated.steps.count == conversation.steps.count, "no close was added")
        #expect(mutated.message(at: mutated.messages[1]) == .text("[1,{}]"))
        let close = try #require(ConversationMutations.mutant("message[2]:then-close-1008", of: conversation))
        #expect(close.change == .conversation(.message(2, .thenClose(1008))))
        #expect(mutants.contains { $0.id == "message[2][*]:null" })
        #expect(!mutants.contains { $0.id.contains("$") }, "\(mutants.map(\.id))")
    }
}

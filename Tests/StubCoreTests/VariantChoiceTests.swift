import HTTPMessages
import TestTurns
import Testing

@testable import StubCore

@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct VariantChoiceTests {
    private static let stub = Stub(
        name: "s", request: RequestPattern(path: PathPattern("/s")),
        variants: ["good": StubVariant(), "bad": StubVariant(), "nil": StubVariant(), "slow": StubVariant(delayMs: 5)],
        sequence: ["bad", "nil"])
    private static let plain = Stub(
        name: "p", request: RequestPattern(path: PathPattern("/p")),
        variants: ["good": StubVariant(), "bad": StubVariant(), "nil": StubVariant()])

    private func state() throws -> StubState {
        StubState(catalog: try StubCatalog(stubs: [Self.stub, Self.plain]), journal: RequestJournal(capacity: 10))
    }

    @Test func choice_followsHeaderThenStubThenSequenceThenServerThenGood() throws {
        var state = try state()
        state.serverVariant = "slow"
        state.stubVariants["s"] = "nil"
        #expect(state.chooseVariant(for: Self.stub, requested: "slow") == .chosen("slow", source: .header))
        #expect(state.chooseVariant(for: Self.stub, requested: nil) == .chosen("nil", source: .stub))
        state.stubVariants = [:]
        #expect(state.chooseVariant(for: Self.stub, requested: nil) == .chosen("bad", source: .sequence))
        #expect(state.chooseVariant(for: Self.plain, requested: nil) == .fallback("slow"))
        state.serverVariant = "bad"
        #expect(state.chooseVariant(for: Self.plain, requested: nil) == .chosen("bad", source: .server))
        state.serverVariant = nil
        #expect(state.chooseVariant(for: Self.plain, requested: nil) == .chosen("good", source: .default))
    }

    @Test func sequence_answersInOrderAndRepeatsTheLast() throws {
        var state = try state()
        let names = (0..<4).map { _ in state.chooseVariant(for: Self.stub, requested: nil) }
        #expect(names == ["bad", "nil", "nil", "nil"].map { .chosen($0, source: .sequence) })
        state.reset(serverVariant: nil)
        #expect(state.chooseVariant(for: Self.stub, requested: nil) == .chosen("bad", source: .sequence))
    }

    @Test func choice_namesAMissingVariantInsteadOfFallingBack() throws {
        var state = try state()
        #expect(
            state.chooseVariant(for: Self.plain, requested: "slow")
                == .missing("slow", source: .header))
        state.stubVariants["p"] = "gone"
        #expect(state.chooseVariant(for: Self.plain, requested: nil) == .missing("gone", source: .stub))
    }

    @Test func journal_keepsTheMostRecentEntriesInOrder() throws {
        var journal = RequestJournal(capacity: 3)
        for index in 1...5 {
            journal.record(
                try Request(method: "GET", target: "/\(index)"), stub: "s", variant: "good", status: 200, fault: nil
            )
        }
        #expect(journal.entries(matching: JournalQuery()).map(\.path) == ["/3", "/4", "/5"])
        #expect(journal.entries(matching: JournalQuery()).map(\.id) == [3, 4, 5])
        #expect(journal.entries(matching: JournalQuery(path: "/4")).count == 1)
        journal.clear()
        #expect(journal.entries(matching: JournalQuery()).isEmpty)
    }
}

import Foundation
import StubMutations
import StubServer
import StubServerTesting
import StubTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The assistant screen with a tool swept through every mutant of one turn streamed by each of four model APIs
/// (`AssistantFixtures`: MockData's turn without its pauses): the careful `AssistantViewModel` ends on the answer
/// with its tool's result, a readable failure or an offer to try again, runs its tool only on whole arguments, and
/// never shows a cut, failed or filtered turn as complete; a fragile client is crashed, failed or hung for exactly
/// the mutants predicted from the bytes each sends.
// Ten minutes: under SWEEP=all every sweep's cases start at once.
@Suite(.takesTurns, .timeLimit(.minutes(10)))
struct AssistantSweepTests {
    typealias Provider = TurnAssembler.Provider

    static let text = "Here's a dessert for tonight: Apam balik. Let me find its recipe."
    static let wholeAnswer = text + "\n" + AssistantViewModel.findRecipe(.init(dessert: "Apam balik", servings: 2))

    /// One mutant of one provider's stream.
    struct Case: Sendable, CustomTestStringConvertible {
        var provider: Provider
        var mutant: StubMutant
        var testDescription: String { "\(provider.rawValue) \(mutant.id)" }
    }

    /// The grammar's mutants (made from the turn, `TurnMutations`).
    static func isGrammar(_ id: String) -> Bool {
        ["text:", "call[", "parts:", "finish:", "end:", "usage:", "events:new-kind"].contains(where: id.hasPrefix)
            || id.hasSuffix(":then-error")
    }

    static func mutants(of provider: Provider) throws -> [StubMutant] {
        try StubMutant.all(of: provider.stub, fixtures: "AssistantFixtures")
    }

    /// Every mutant of every provider under `SWEEP=all`; otherwise the grammar's, the answers instead of a stream,
    /// the stream-wide ones, and every twentieth of the rest.
    static let cases = Result {
        try Provider.allCases.flatMap { provider in
            var rest = 0
            return try mutants(of: provider).filter { mutant in
                let id = mutant.id
                if FullSweep.isOn || isGrammar(id) || ["status:", "body:", "events:"].contains(where: id.hasPrefix)
                    || id.hasSuffix(":split")
                {
                    return true
                }
                rest += 1
                return rest % 20 == 1
            }.map { Case(provider: provider, mutant: $0) }
        }
    }

    /// The mutants after which the careful screen shows the whole answer and runs its tool once: those that keep
    /// every piece of the turn and say it is complete, however they frame, split, repeat or order it.
    static func keepsTheAnswer(_ id: String) -> Bool {
        let kept = [
            "parts:interleaved", "text:started-twice", "call[1]:started-twice", "text:never-stopped",
            "call[1]:never-stopped", "end:missing", "usage:zero", "events:new-kind", "finish:stop",
            "events:crlf", "events:cr", "events:comments", "events:heartbeats", "events:ping-events", "events:retry",
            "events:huge-event", "events:no-terminal",
        ]
        return kept.contains(id) || id.hasPrefix("call[1].arguments:split-in-token-")
            || (id.hasPrefix("event[") && id.hasSuffix(":split"))
    }

    /// The mutants whose turn is not whole or not finished as it should be: the screen must not show them as
    /// answered.
    static func breaksTheTurn(_ id: String) -> Bool {
        id.hasPrefix("call[1].arguments:cut-after-") || id.hasSuffix(":then-error")
            || [
                "finish:missing", "finish:length", "finish:content-filter", "status:204", "status:503",
                "body:html-error-page",
            ]
            .contains(id)
    }

    /// What the careful screen must end on for `id`.
    @MainActor static func check(_ screen: AssistantViewModel, _ label: String, _ id: String) {
        let screens = screen.screens
        let final = screens.last ?? .idle
        #expect(final.isFinal, "\(label): ended on \(final)")
        if let failure = screens.firstIndex(where: { if case .failed = $0 { true } else { false } }) {
            #expect(failure == screens.count - 1, "\(label): something shown after a failure: \(screens)")
        }
        // A tool runs at most once, and only on the arguments the turn asked for.
        #expect(
            screen.toolRuns.allSatisfy { $0 == .init(dessert: "Apam balik", servings: 2) },
            "\(label): \(screen.toolRuns)")
        #expect(screen.toolRuns.count <= 1, "\(label): \(screen.toolRuns)")
        if keepsTheAnswer(id) { #expect(final == .answered(wholeAnswer), "\(label)") }
        if breaksTheTurn(id) {
            #expect(!{ if case .answered = final { true } else { false } }(), "\(label): shown as answered: \(final)")
            #expect(screen.toolRuns.isEmpty || !id.hasPrefix("call[1].arguments:cut"), "\(label): tool run")
        }
    }

    @Test(arguments: try cases.get())
    func inProcess_theCarefulScreen_endsReadable(_ sweepCase: Case) async throws {
        try await Slots.holding(.sweepCases) {
            try await sweepCase.mutant.withStubs { stubs in
                let screen = await AssistantViewModel(
                    sweepCase.provider, base: URL(string: "https://api.catalog.test")!,
                    configuration: stubs.sessionConfiguration)
                await screen.ask("Something sweet?")
                await Self.check(screen, sweepCase.testDescription, sweepCase.mutant.id)
            }
        }
    }

    /// Over a socket: the grammar's mutants, the splits and line ends (every mutant under `SWEEP=all`).
    @Test(
        arguments: try cases.get().filter {
            FullSweep.isOn || isGrammar($0.mutant.id) || $0.mutant.id.hasPrefix("events:cr")
                || $0.mutant.id.hasSuffix(":split")
        })
    func overASocket_theCarefulScreen_endsReadable(_ sweepCase: Case) async throws {
        try await Slots.holding(.sweepCases) {
            try await sweepCase.mutant.withServer { server in
                let screen = await AssistantViewModel(
                    sweepCase.provider, base: server.baseURL, configuration: .ephemeral, idleTimeout: 2)
                await screen.ask("Something sweet?")
                await Self.check(screen, sweepCase.testDescription, sweepCase.mutant.id)
            }
        }
    }

    @Test(arguments: Provider.allCases)
    func theGoodTurn_isStreamed_thenItsToolRuns(_ provider: Provider) async throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "AssistantFixtures")
        try await withStubServer(fixtures: fixtures) { server in
            let screen = await AssistantViewModel(provider, base: server.baseURL, configuration: .ephemeral)
            await screen.ask("Something sweet?")
            let screens = await screen.screens
            #expect(screens.first == .thinking)
            #expect(screens.contains(.streaming("Here's")))
            // The tool runs after the whole text, and the answer comes after the tool.
            #expect(
                screens.suffix(3) == [.streaming(Self.text), .runningTool("find_recipe"), .answered(Self.wholeAnswer)])
            #expect(await screen.toolRuns == [.init(dessert: "Apam balik", servings: 2)])
        }
    }
}

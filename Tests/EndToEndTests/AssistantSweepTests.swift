import Foundation
import HTTPMessages
import StubMutations
import StubServer
import StubServerTesting
import StubTestSupport
import TestTurns
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
@Suite(.takesTurns(.heavy), .timeLimit(.minutes(10)))
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

    // MARK: The fragile client

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "AssistantFixtures")

    /// Each provider's good stream (with its grammar) and its mutants by ID.
    static let goodStreams = Task {
        let catalog = try StubCatalog.load(from: fixtures)
        var streams: [Provider: (MutableEventStream, [String: Mutation])] = [:]
        for provider in Provider.allCases {
            let events = catalog.stub(named: provider.stub)?.variants["good"]?.events
            let stream = MutableEventStream(
                events?.events ?? [], status: 200, headers: HTTPHeaders(), grammar: events?.grammar ?? [])
            streams[provider] = (stream, Dictionary(EventStreamMutations.of(stream).map { ($0.id, $0) }) { a, _ in a })
        }
        return streams
    }

    /// What the fragile client's assumptions make of `mutant`, read off the bytes it sends (which
    /// `ModelAPITurnTests` and `EventStreamMutantTests` prove both transports deliver). By its ID, a connection
    /// left open or paused past a minute hangs it (it reads the whole body) and a reset fails it (it throws); the
    /// rest is read line by line as it reads it: a data line that is not the provider's chunk crashes it, a stream
    /// that never says it finished hangs it, arguments that do not decode crash it.
    static func expectedOutcome(_ provider: Provider, _ id: String) async throws -> StubMutant.Outcome {
        if id.hasSuffix(":then-hang") || id == "events:idle-pause" { return .hung }
        if id.hasSuffix(":then-reset") { return .failed }
        let (stream, mutants) = try #require(try await goodStreams.value[provider])
        let body: [UInt8]
        switch try #require(mutants[id]).apply(to: stream) {
        case .answer(let answer): body = answer.body
        case .stream(_, _, let blocks, _): body = blocks.flatMap(\.pieces).flatMap(\.bytes)
        }
        var arguments = ""
        var finished = false
        for line in String(decoding: body, as: UTF8.self).components(separatedBy: "\n") where line.hasPrefix("data: ") {
            let payload = line.dropFirst(6)
            if payload == "[DONE]" { break }
            guard let json = try? JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any] else {
                return .crashed
            }
            switch provider {
            case .openAIChat:
                guard let choices = json["choices"] as? [[String: Any]] else { return .crashed }
                guard let choice = choices.first else { continue }
                guard let delta = choice["delta"] as? [String: Any] else { return .crashed }
                if let calls = delta["tool_calls"] as? [[String: Any]] {
                    guard let function = calls.first?["function"] as? [String: Any],
                        let piece = function["arguments"] as? String
                    else { return .crashed }
                    arguments += piece
                }
                if choice["finish_reason"] is String { finished = true }
            case .openAIResponses, .anthropic:
                guard let type = json["type"] as? String else { return .crashed }
                switch type {
                case "response.output_text.delta": guard json["delta"] is String else { return .crashed }
                case "response.function_call_arguments.delta":
                    guard let piece = json["delta"] as? String else { return .crashed }
                    arguments += piece
                case "content_block_delta":
                    guard let delta = json["delta"] as? [String: Any] else { return .crashed }
                    arguments += delta["partial_json"] as? String ?? ""
                case "response.completed" where provider == .openAIResponses,
                    "message_stop" where provider == .anthropic:
                    finished = true
                default: break
                }
            case .gemini:
                guard let candidate = (json["candidates"] as? [[String: Any]])?.first,
                    let parts = (candidate["content"] as? [String: Any])?["parts"] as? [[String: Any]]
                else { return .crashed }
                for part in parts {
                    guard let call = part["functionCall"] as? [String: Any] else { continue }
                    guard let args = call["args"], args is [String: Any] || args is [Any],
                        let json = try? JSONSerialization.data(withJSONObject: args)
                    else { return .crashed }
                    arguments = String(decoding: json, as: UTF8.self)
                }
                if candidate["finishReason"] != nil { finished = true }
            }
        }
        guard finished else { return .hung }
        let query = try? JSONDecoder().decode(AssistantViewModel.RecipeQuery.self, from: Data(arguments.utf8))
        return query == nil ? .crashed : .passed
    }

    /// Which mutants the fragile client meets: every one under `SWEEP=all`; otherwise the grammar's and a few more.
    static let fragileCases = Result {
        try Provider.allCases.flatMap { provider in
            try mutants(of: provider).filter {
                FullSweep.isOn || isGrammar($0.id) || ["events:c", "event[1]:then-"].contains(where: $0.id.hasPrefix)
            }
            .map { Case(provider: provider, mutant: $0) }
        }
    }

    @Test func theFragileClientsPredictions_coverEveryKind() async throws {
        var counts: [StubMutant.Outcome: Int] = [:]
        for sweepCase in try Self.fragileCases.get() {
            counts[try await Self.expectedOutcome(sweepCase.provider, sweepCase.mutant.id), default: 0] += 1
        }
        #expect(Set(counts.keys) == Set(StubMutant.Outcome.allCases), "\(counts)")
    }

    #if compiler(>=6.3) && (os(macOS) || os(Linux))
        /// The fragile client in batches, many mutants to a child process: each ends as predicted. Those predicted to
        /// hang get a 3 s window, the rest a minute, which only ends a hang.
        @Test func theFragileClient_inBatches_breaksOnExactlyThePredictedMutants() async throws {
            let cases = try Self.fragileCases.get()
            var expected: [StubMutant.Outcome] = []
            for sweepCase in cases {
                expected.append(try await Self.expectedOutcome(sweepCase.provider, sweepCase.mutant.id))
            }
            let lanes = FullSweep.isOn ? 4 : 1
            let hung = cases.indices.filter { expected[$0] == .hung }
            let others = cases.indices.filter { expected[$0] != .hung }
            async let hangs = Self.outcomesInBatches(cases, at: hung, seconds: 3, lanes: lanes)
            async let rest = Self.outcomesInBatches(cases, at: others, seconds: 60, lanes: lanes)
            var counts: [StubMutant.Outcome: Int] = [:]
            for (index, outcome) in await hangs + rest {
                #expect(outcome == expected[index], "\(cases[index].testDescription)")
                counts[expected[index], default: 0] += 1
            }
            print("The fragile assistant client over \(cases.count) mutants: \(counts)")
        }

        static func outcomesInBatches(_ cases: [Case], at indices: [Int], seconds: Int, lanes: Int) async -> [(
            Int, StubMutant.Outcome?
        )] {
            // A batch runs mutants of one stub: each provider's in batches of its own.
            var results: [(Int, StubMutant.Outcome?)] = []
            for provider in Provider.allCases {
                let mine = indices.filter { cases[$0].provider == provider }
                let outcomes = await StubMutant.outcomes(of: mine.map { cases[$0].mutant }, lanes: lanes) { batch in
                    await Slots.holding(.exitTests) {
                        await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                            [
                                batch = batch as StubMutant.Batch, seconds = seconds as Int,
                                provider = provider as Provider
                            ] in
                            await batch.exitAfterEach(within: .seconds(seconds)) { stubs in
                                _ = try await FragileAssistant.answer(provider, stubs.sessionConfiguration)
                            }
                        }
                    }
                }
                results += zip(mine, outcomes).map { ($0, $1) }
            }
            return results
        }
    #endif
}

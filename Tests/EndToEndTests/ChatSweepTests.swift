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

/// The chat screen swept through every mutant of MockData's chat stream: the careful `ChatViewModel` over both
/// transports ends on the whole answer, a readable failure or an offer to try again, never on a spinner and never
/// with text after a failure, and on the whole answer for every mutant that keeps its tokens; a fragile client is
/// crashed, failed or hung for exactly the mutants that break one of its assumptions.
// Ten minutes: under SWEEP=all every case starts at once and each case's clock runs while it waits its turn.
@Suite(.takesTurns(.heavy), .timeLimit(.minutes(10)))
struct ChatSweepTests {
    static let path = "/v1/chat/completions"
    static let wholeAnswer = "Here's a dessert for tonight: Apam balik, a sweet pancake."

    /// Over a socket (URLSession on Linux costs system time there): every one under `SWEEP=all`; otherwise those
    /// whose bytes or ending a socket carries differently (a reset, a hang, a split, line ends, the idle pause, a
    /// 503).
    static let socketMutants = Result {
        Sweep.sample(
            try StubMutant.all(of: "chat-completion"), id: \.id,
            keeping: [
                "status:503", "events:crlf", "events:cr", "events:idle-pause", "event[1]:split", "event[2]:then-reset",
                "event[3]:then-hang",
            ], every: 0)
    }

    /// Which mutants the careful screen meets: every one under `SWEEP=all`; otherwise the answers, the stream's,
    /// the first and the last events', and every twentieth of the rest.
    static let mutants = Result {
        Sweep.sample(
            try StubMutant.all(of: "chat-completion"), id: \.id,
            keeping: ["status:", "body:", "events:", "event[1]:", "event[16]:"], every: 20)
    }

    /// Which the fragile client meets in batches: every one under `SWEEP=all`; otherwise a few of each outcome.
    static let fragileMutants = Result {
        Sweep.sample(try StubMutant.all(of: "chat-completion"), id: \.id, keeping: fragileKept, every: 0)
    }

    static let fragileKept = ["events:crlf", "events:comments", "event[1]:then-reset", "event[1]:then-hang"]

    /// Which it meets one child per mutant: those kept above, and under `SWEEP=all` every eighth of the rest
    /// (batches run them all); every one with `SWEEP_ONE_CHILD=all` (`bench/crash-sweep.sh` compares the two).
    static let oneChildMutants = Result {
        let all = try StubMutant.all(of: "chat-completion")
        if ProcessInfo.processInfo.environment["SWEEP_ONE_CHILD"] == "all" { return all }
        var rest = 0
        return all.filter { mutant in
            if fragileKept.contains(mutant.id) { return true }
            rest += 1
            return FullSweep.isOn && rest % 8 == 1
        }
    }

    /// The mutants after which the careful screen shows the whole answer: those that keep every token, and those
    /// that break the connection once (it resumes with `Last-Event-ID`). Not in process on Linux for a connection
    /// reset, left open or paused: there a custom protocol's body reaches the task only with its last piece, so the
    /// screen has no event, hence no id to resume from.
    static func keepsTheAnswer(_ id: String, inProcess: Bool) -> Bool {
        var kept = [
            "events:no-terminal", "events:crlf", "events:cr", "events:comments", "events:heartbeats",
            "events:ping-events", "events:ids-repeated", "events:ids-emptied", "events:retry", "events:huge-event",
            "events:idle-pause",
        ]
        var eventKept = [":twice", ":swapped-with-next", ":then-end", ":then-reset", ":then-hang", ":split"]
        #if canImport(FoundationNetworking)
            if inProcess {
                kept.removeAll { $0 == "events:idle-pause" }
                eventKept.removeAll { $0 == ":then-reset" || $0 == ":then-hang" }
            }
        #endif
        if kept.contains(id) { return true }
        // The terminal event ahead of the last token reads as a lost token (id 15 missing when `[DONE]` comes).
        if id == "event[15]:swapped-with-next" { return false }
        if id.hasPrefix("event[") && eventKept.contains(where: id.hasSuffix) { return true }
        // Values of every token's data that the screen does not read: its id, object and index, a key it does
        // not know.
        let unread = ["data(token).id:", "data(token).object:", "data(token).choices[*].index:"]
        return unread.contains(where: id.hasPrefix)
            || ["data(token)", "data(token).choices[*]", "data(token).choices[*].delta"].contains {
                id == $0 + ":unknown-key"
            }
    }

    /// What the careful screen must end on, for `id`, given the screens it showed.
    static func check(_ screens: [ChatViewModel.Screen], _ id: String, inProcess: Bool) {
        let final = screens.last ?? .idle
        #expect(final.isFinal, "\(id): ended on \(final)")
        if let failure = screens.firstIndex(where: { if case .failed = $0 { true } else { false } }) {
            #expect(failure == screens.count - 1, "\(id): something shown after a failure: \(screens)")
        }
        if keepsTheAnswer(id, inProcess: inProcess) { #expect(final == .answered(wholeAnswer), "\(id)") }
    }

    @Test(arguments: try mutants.get())
    func inProcess_theCarefulScreen_endsReadable(_ mutant: StubMutant) async throws {
        let screens = try await Slots.holding(.sweepCases) {
            try await mutant.withStubs { stubs in
                let screen = await ChatViewModel(
                    url: URL(string: "https://chat.catalog.test" + Self.path)!,
                    configuration: stubs.sessionConfiguration)
                await screen.ask("Something sweet?")
                return await screen.screens
            }
        }
        Self.check(screens, mutant.id, inProcess: true)
    }

    @Test(arguments: try socketMutants.get())
    func overASocket_theCarefulScreen_endsReadable(_ mutant: StubMutant) async throws {
        // MockData's stream without its pauses (the same mutants), and a 2 s idle limit: URLSession on Linux spins
        // while a connection is quiet (a stream left open for 10 s cost 7 s of system time here). A quiet spell
        // that a busy machine makes is resumed like a real one (`Last-Event-ID`), so the answer is still whole.
        try await Slots.holding(.sweepCases) {
            try await withStubServer(catalog: try EventStreamMutantTests.chat.catalog) { server in
                try server.setMutation(mutant.id, forStub: "chat-completion")
                let screen = await ChatViewModel(
                    url: server.baseURL.appendingPathComponent(Self.path), configuration: .ephemeral, idleTimeout: 2)
                await screen.ask("Something sweet?")
                Self.check(await screen.screens, mutant.id, inProcess: false)
            }
        }
    }

    @Test func theGoodStream_isShownTokenByToken_overASocket() async throws {
        try await withStubServer(fixtures: mockData) { server in
            let screen = await ChatViewModel(
                url: server.baseURL.appendingPathComponent(Self.path), configuration: .ephemeral)
            await screen.ask("Something sweet?")
            let screens = await screen.screens
            #expect(screens.first == .thinking && screens.last == .answered(Self.wholeAnswer))
            // Tokens are shown as they come (how many reads they come in is the network's business).
            let shown = screens.compactMap { if case .streaming(let text) = $0 { text } else { nil } }
            #expect(!shown.isEmpty && shown.allSatisfy(Self.wholeAnswer.hasPrefix))
            #expect(shown == shown.sorted { $0.count < $1.count })
        }
    }

    /// A chat client written the way sweeps exist to catch: it reads the whole body and assumes what the good
    /// stream happens to do: lines end with LF, ids go 1, 2, 3 with none missing, repeated or out of order, every
    /// data is a token chunk whose `choices[0].delta` holds a string `content` if any, and `[DONE]` comes.
    enum FragileChat {
        static func request() -> URLRequest {
            var request = URLRequest(url: URL(string: "https://chat.catalog.test" + ChatSweepTests.path)!)
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(#"{"stream": true}"#.utf8)
            return request
        }

        static func answer(_ configuration: URLSessionConfiguration) async throws -> String {
            let (data, _) = try await URLSession(configuration: configuration).data(for: request())
            if let text = text(of: data) { return text }
            while true { try await Task.sleep(for: .seconds(1)) }  // [DONE] is still to come.
        }

        /// `answer(_:)` with the stream read on the main actor, as a view model would: a crash there is on the main
        /// thread, not the mutant's own.
        static func answerOnTheMainActor(_ configuration: URLSessionConfiguration) async throws -> String {
            let (data, _) = try await URLSession(configuration: configuration).data(for: request())
            if let text = await textOnTheMainActor(data) { return text }
            while true { try await Task.sleep(for: .seconds(1)) }
        }

        @MainActor static func textOnTheMainActor(_ data: Data) -> String? { text(of: data) }

        /// The answer's text, or nil before `[DONE]`.
        static func text(of data: Data) -> String? {
            var text = ""
            var lastID = 0
            for line in String(decoding: data, as: UTF8.self).components(separatedBy: "\n") {
                if line.hasPrefix("id: ") {
                    let id = Int(line.dropFirst(4))!
                    precondition(id == lastID + 1, "event \(id) after \(lastID)")
                    lastID = id
                }
                guard line.hasPrefix("data: ") else { continue }
                let payload = line.dropFirst(6)
                if payload == "[DONE]" { return text }
                let chunk = try! JSONSerialization.jsonObject(with: Data(payload.utf8)) as! [String: Any]
                let delta = (chunk["choices"] as! [[String: Any]])[0]["delta"] as! [String: Any]
                if let content = delta["content"] { text += content as! String }
            }
            return nil
        }
    }

    /// MockData's chat stream and its mutants by ID, made once.
    static let goodStream = Task {
        let events = try await MockData.catalog().stub(named: "chat-completion")?.variants["good"]?.events?.events
        let stream = MutableEventStream(events ?? [], status: 200, headers: HTTPHeaders())
        return (stream, Dictionary(EventStreamMutations.of(stream).map { ($0.id, $0) }) { first, _ in first })
    }

    /// What the fragile client's assumptions make of `mutant`, read off the mutant made of MockData's stream (the
    /// bytes `EventStreamMutantTests` proves both transports send). By its ID, a connection left open or paused past
    /// a minute hangs it (it reads the whole body), a reset fails it (it throws); the other answers are read line by
    /// line as it reads them: an id that is not the next number, a data line that is not a token chunk, or a
    /// `content` that is not a string crashes it; no `[DONE]` hangs it.
    static func expectedOutcome(of mutant: StubMutant) async throws -> StubMutant.Outcome {
        if mutant.id.hasSuffix(":then-hang") || mutant.id == "events:idle-pause" { return .hung }
        if mutant.id.hasSuffix(":then-reset") { return .failed }
        let (stream, mutants) = try await Self.goodStream.value
        let body: [UInt8]
        switch try #require(mutants[mutant.id]).apply(to: stream) {
        case .answer(let answer): body = answer.body
        case .stream(_, _, let blocks, _): body = blocks.flatMap(\.pieces).flatMap(\.bytes)
        }
        var lastID = 0
        for line in String(decoding: body, as: UTF8.self).components(separatedBy: "\n") {
            if line.hasPrefix("id: ") {
                guard let id = Int(line.dropFirst(4)), id == lastID + 1 else { return .crashed }
                lastID = id
            }
            guard line.hasPrefix("data: ") else { continue }
            let payload = line.dropFirst(6)
            if payload == "[DONE]" { return .passed }
            guard let chunk = try? JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any],
                let choices = chunk["choices"] as? [[String: Any]], let first = choices.first,
                let delta = first["delta"] as? [String: Any]
            else { return .crashed }
            if let content = delta["content"], !(content is String) { return .crashed }
        }
        return .hung
    }

    #if compiler(>=6.3) && (os(macOS) || os(Linux))
        @Test(arguments: try oneChildMutants.get())
        func theFragileClient_breaksOnExactlyTheMutantsThatBreakAnAssumption(_ mutant: StubMutant) async throws {
            let expected = try await Self.expectedOutcome(of: mutant)
            // 3 s for the mutants predicted to hang (their run never ends, so the wait is their whole cost); a
            // minute, which only ends a hang, for the rest, whose child may start slowly on a busy machine.
            let seconds = expected == .hung ? 3 : 60
            let result = await Slots.holding(.exitTests) {
                await #expect(processExitsWith: expected == .passed ? .success : .failure) {
                    [mutant, seconds = seconds as Int] in
                    await mutant.exitAfter(within: .seconds(seconds)) { stubs in
                        _ = try await FragileChat.answer(stubs.sessionConfiguration)
                    }
                }
            }
            #expect(result.map(StubMutant.Outcome.init) == expected, "\(mutant.id)")
        }
    #endif

    #if compiler(>=6.3) && (os(macOS) || os(Linux))
        /// The same mutants in batches, many to a child process: the same outcome for each as one child per mutant
        /// gives (the test above). The mutants predicted to hang go in batches with a 3 s window, the rest with a
        /// minute's, as above.
        @Test func theFragileClient_inBatches_breaksOnTheSameMutants() async throws {
            try await Self.expectTheSameOutcomesInBatches(try Self.fragileMutants.get(), onTheMainActor: false)
        }

        /// The same with the stream read on the main actor: a trap there cannot be stopped alone, so it ends its
        /// child, and the mutants running beside it run again one at a time.
        @Test func theFragileClient_onTheMainActor_inBatches_breaksOnTheSameMutants() async throws {
            let all = try StubMutant.all(of: "chat-completion")
            let sample = all.enumerated().filter { $0.offset % (FullSweep.isOn ? 4 : 30) == 0 }.map(\.element)
            try await Self.expectTheSameOutcomesInBatches(sample, onTheMainActor: true)
        }

        static func expectTheSameOutcomesInBatches(_ mutants: [StubMutant], onTheMainActor: Bool) async throws {
            var expected: [StubMutant.Outcome] = []
            for mutant in mutants { expected.append(try await Self.expectedOutcome(of: mutant)) }
            // As many children at once as the test above runs exit tests at once.
            let lanes = FullSweep.isOn ? 4 : 1
            let predictedHangs = mutants.indices.filter { expected[$0] == .hung }
            let others = mutants.indices.filter { expected[$0] != .hung }
            async let hangs = Self.outcomesInBatches(
                mutants, at: predictedHangs, seconds: 3, lanes: lanes, onTheMainActor: onTheMainActor)
            async let rest = Self.outcomesInBatches(
                mutants, at: others, seconds: 60, lanes: lanes, onTheMainActor: onTheMainActor)
            for (index, outcome) in await hangs + rest {
                #expect(outcome == expected[index], "\(mutants[index].id)")
            }
        }

        /// The outcomes of the mutants at `indices`, in batches, each with a window of `seconds`: 3 s for those
        /// predicted to hang, a minute for the rest, as the test above gives them.
        static func outcomesInBatches(
            _ mutants: [StubMutant], at indices: [Int], seconds: Int, lanes: Int, onTheMainActor: Bool
        ) async -> [(Int, StubMutant.Outcome?)] {
            let outcomes = await StubMutant.outcomes(of: indices.map { mutants[$0] }, lanes: lanes) { batch in
                await Slots.holding(.exitTests) {
                    await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                        [batch = batch as StubMutant.Batch, seconds = seconds as Int, main = onTheMainActor as Bool] in
                        await batch.exitAfterEach(within: .seconds(seconds)) { stubs in
                            if main {
                                _ = try await FragileChat.answerOnTheMainActor(stubs.sessionConfiguration)
                            } else {
                                _ = try await FragileChat.answer(stubs.sessionConfiguration)
                            }
                        }
                    }
                }
            }
            return Array(zip(indices, outcomes))
        }
    #endif

    @Test func theFragileClientsPredictions_coverEveryKind() async throws {
        let counts = try await withThrowingTaskGroup(of: StubMutant.Outcome.self) { group in
            for mutant in try StubMutant.all(of: "chat-completion") {
                group.addTask { try await Self.expectedOutcome(of: mutant) }
            }
            return try await group.reduce(into: [StubMutant.Outcome: Int]()) { $0[$1, default: 0] += 1 }
        }
        #expect(Set(counts.keys) == Set(StubMutant.Outcome.allCases), "\(counts)")
        print("chat-completion's mutants for the fragile client: \(counts)")
    }
}

import Foundation
import HTTPMessages
import StubMutations
import StubServer
import StubServerTesting
import StubTestSupport
import TestTurns
import Testing

/// The live chart screen swept through every mutant of MockData's live WebSocket (over a socket: in process a
/// WebSocket cannot be answered): the careful `LiveChartViewModel` ends on the chart, a readable failure or a retry
/// offer, and on the chart for every mutant that keeps it; a fragile client is crashed, failed or hung for exactly
/// the mutants that break one of its assumptions.
// Ten minutes: under SWEEP=all every case starts at once and each case's clock runs while it waits its turn.
@Suite(.takesTurns(.heavy), .timeLimit(.minutes(10)))
struct LiveFeedSweepTests {
    static let chart = ["1. Midnights, Taylor Swift"]

    /// Which mutants the careful screen meets: every one under `SWEEP=all`; otherwise the conversation's, each
    /// message's but its closes of classes 1001, 1011 and 4000, and every tenth of the rest; not those where no
    /// chart ever comes (the chart left out, or not a chart), whose case lasts the screen's whole patience.
    static let mutants = Result {
        let changes = [
            ":dropped", ":twice", ":swapped-with-next", ":as-binary", ":fragmented", ":then-close-1000",
            ":then-close-1008", ":then-drop",
        ]
        let sampled = Sweep.sample(
            try StubMutant.all(of: "live-updates"), id: \.id,
            keeping: ["conversation:"] + (1...4).flatMap { number in changes.map { "message[\(number)]" + $0 } },
            every: 10)
        if FullSweep.isOn { return sampled }
        return sampled.filter { $0.id != "message[4]:dropped" && !$0.id.hasPrefix("message[4].type:") }
    }

    /// Which the fragile client meets, each in a child process: every one under `SWEEP=all`; otherwise a few of each
    /// outcome.
    static let fragileMutants = Result {
        Sweep.sample(
            try StubMutant.all(of: "live-updates"), id: \.id,
            keeping: [
                "conversation:ping-flood", "message[1]:dropped", "message[2]:then-drop", "message[4]:as-binary",
                "message[1].channel:empty",
            ],
            every: 0)
    }

    /// The changes of a message's JSON as a whole.
    static let wholeJSON: Set = [":null", ":as-string", ":as-number", ":as-bool", ":as-array", ":as-object", ":empty"]

    /// The mutants after which the careful screen shows the chart: those that leave the chart (message 4) as it is
    /// and still send it.
    static func keepsTheChart(_ id: String) -> Bool {
        if id == "conversation:ping-flood" || id == "message[4]:unknown-key" { return true }
        guard id.hasPrefix("message["), let number = Int(id.dropFirst(8).prefix { $0 != "]" }) else { return false }
        let change = id.drop { $0 != "]" }.dropFirst()
        // Another message's JSON, in part or whole (`message[N]:null`, `:as-bool`, `:empty`).
        if change.hasPrefix(".") || change.hasPrefix("[") || Self.wholeJSON.contains(String(change)) {
            return number < 4
        }
        switch change {
        case ":twice", ":as-binary", ":fragmented", ":swapped-with-next": return true
        case ":dropped": return number < 4
        default: return number == 4  // a close or a drop after the chart
        }
    }

    @MainActor
    @Test(arguments: try mutants.get())
    func theCarefulScreen_endsReadable(_ mutant: StubMutant) async throws {
        let screens = try await Slots.holding(.sweepCases) {
            try await mutant.withServer { server in
                let screen = LiveChartViewModel()
                await screen.open(port: server.port)
                return screen.screens
            }
        }
        let final = screens.last ?? .connecting
        #expect(final.isFinal && screens.count == 1, "\(mutant.id): \(screens)")
        if Self.keepsTheChart(mutant.id) { #expect(final == .chart(Self.chart), "\(mutant.id)") }
    }

    /// A live chart client written the way sweeps exist to catch: every frame one whole text message of JSON,
    /// the conversation exactly hello, pong, subscribed, chart, the chart's rank an integer and its names strings.
    enum FragileFeed {
        static func firstRow(port: Int) async throws -> String {
            let socket = try await RawWebSocket(port: port, path: "/live", protocols: ["catalog.v1"])
            func next(_ type: String) async throws -> [String: Any] {
                let frame = try await socket.readFrame()
                precondition(frame.opcode == 1 && frame.fin, "a frame that is not one whole text message")
                let message = try! JSONSerialization.jsonObject(with: Data(frame.payload)) as! [String: Any]
                precondition(message["type"] as! String == type, "not \(type)")
                return message
            }
            _ = try await next("hello")
            try await socket.send(text: #"{"type": "ping"}"#)
            _ = try await next("pong")
            try await socket.send(text: #"{"type": "subscribe"}"#)
            _ = try await next("subscribed")
            let chart = try await next("chart")
            return "\(chart["rank"] as! Int). \(chart["album"] as! String), \(chart["artist"] as! String)"
        }
    }

    /// What the fragile client's assumptions make of `mutant`, read off its conversation: the frames it reads in
    /// turn are the opening ones, then each answer's after it asks; a frame that is not one whole text message, JSON
    /// that is not an object of the expected type, or a chart without an integer rank and string names crashes it;
    /// a dropped connection fails it (its read throws); waiting for a frame that never comes hangs it.
    static func expectedOutcome(of mutant: StubMutant) async throws -> StubMutant.Outcome {
        let catalog = try await MockData.catalog()
        let script = try #require(catalog.stub(named: "live-updates")?.variants["good"]?.script)
        let good = MutableConversation(script)
        let mutation = try #require(ConversationMutations.mutant(mutant.id, of: good))
        let conversation = mutation.apply(to: good)
        var replies: [[WebSocketOutput.Kind]] = []
        var queue: [WebSocketOutput.Kind] = []
        for step in conversation.steps {
            switch step {
            case .send(let kind, _): queue.append(kind)
            case .reply(_, let sends, _): replies.append(sends)
            case .close(let code, let reason, _): queue.append(.close(code: code, reason: reason))
            case .drop: queue.append(.drop)
            }
        }
        for (index, type) in ["hello", "pong", "subscribed", "chart"].enumerated() {
            if index == 1 || index == 2 { queue += replies[index - 1] }
            guard !queue.isEmpty else { return .hung }
            let kind = queue.removeFirst()
            if kind == .drop { return .failed }
            guard case .text(let text) = kind,
                let message = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                message["type"] as? String == type
            else { return .crashed }
            if type == "chart" {
                guard message["rank"] as? Int != nil, message["album"] is String, message["artist"] is String else {
                    return .crashed
                }
            }
        }
        return .passed
    }

    #if compiler(>=6.3) && (os(macOS) || os(Linux))
        @Test(arguments: try fragileMutants.get())
        func theFragileClient_breaksOnExactlyTheMutantsThatBreakAnAssumption(_ mutant: StubMutant) async throws {
            let expected = try await Self.expectedOutcome(of: mutant)
            // 3 s for the mutants predicted to hang; a minute, which only ends a hang, for the rest.
            let seconds = expected == .hung ? 3 : 60
            let result = await Slots.holding(.exitTests) {
                await #expect(processExitsWith: expected == .passed ? .success : .failure) {
                    [mutant, seconds = seconds as Int] in
                    await mutant.exitAfterServing(within: .seconds(seconds)) { server in
                        _ = try await FragileFeed.firstRow(port: server.port)
                    }
                }
            }
            #expect(result.map(StubMutant.Outcome.init) == expected, "\(mutant.id)")
        }
    #endif

    @Test func theFragileClientsPredictions_coverEveryKind() async throws {
        var counts: [StubMutant.Outcome: Int] = [:]
        for mutant in try StubMutant.all(of: "live-updates") {
            counts[try await Self.expectedOutcome(of: mutant), default: 0] += 1
        }
        #expect(Set(counts.keys) == Set(StubMutant.Outcome.allCases), "\(counts)")
        print("live-updates' mutants for the fragile client: \(counts)")
    }
}

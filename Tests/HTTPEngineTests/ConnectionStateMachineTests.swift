import HTTPMessages
import TestTurns
import Testing

@testable import HTTPEngine

/// The connection's phases and timers, driven by hand with a clock the test steps: no sockets, no sleeping.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct ConnectionStateMachineTests {
    typealias Machine = ConnectionStateMachine

    static let timeouts = Machine.Timeouts(idle: 30_000, header: 10_000, linger: 1000)
    static let ok = Response(status: .ok, body: Array("ok".utf8))
    static func reply(_ action: Reply.Action, delayMs: Int = 0) -> Reply {
        Reply(action, delayMs: delayMs, onFinish: { _ in })
    }

    /// Where a connection can be, each reached from a new connection at time 0.
    enum Start: String, CaseIterable, CustomTestStringConvertible {
        case idle, partial, awaiting, delaying, streaming, silent, lingering, closing, closed, webSocket
        var testDescription: String { rawValue }

        func machine() -> Machine {
            var machine = Machine(timeouts: ConnectionStateMachineTests.timeouts, now: 0)
            switch self {
            case .idle:
                break
            case .partial:
                _ = machine.inputExhausted(partial: true, now: 0)
            case .awaiting:
                machine.requestDecoded(keepAlive: true, isHead: false, now: 0)
            case .delaying:
                machine.requestDecoded(keepAlive: true, isHead: false, now: 0)
                _ = machine.replyReady(reply(.respond(ok), delayMs: 100), now: 0)
            case .streaming:
                machine.requestDecoded(keepAlive: true, isHead: false, now: 0)
                let pieces = [BodyPiece([1, 2, 3], pauseMs: 10), BodyPiece([4, 5, 6, 7], pauseMs: 10)]
                _ = machine.replyReady(reply(.stream(ok, pieces: pieces, chunked: false)), now: 0)
            case .silent:
                machine.requestDecoded(keepAlive: true, isHead: false, now: 0)
                _ = machine.replyReady(reply(.silence), now: 0)
            case .lingering:
                _ = machine.decodeFailed(HTTPError(.badRequest, "bad"), now: 0)
            case .closing:
                machine.requestDecoded(keepAlive: false, isHead: false, now: 0)
                _ = machine.replyReady(reply(.respond(ok)), now: 0)
            case .closed:
                _ = machine.failed()
            case .webSocket:
                machine.requestDecoded(keepAlive: true, isHead: false, now: 0)
                _ = machine.replyReady(reply(.webSocket(upgrade)), now: 0)
                _ = machine.outputDrained(now: 0)
            }
            return machine
        }
    }

    /// What can happen to a connection; timers fire at the machine's own deadline (or much later without one).
    enum Event: String, CaseIterable, CustomTestStringConvertible {
        case bytesArrived, inputExhausted, continueExpected, requestDecoded, replyReady, decodeFailed, peerClosed
        case outputProgressed, outputDrained, failed, timerFired, frameArrived, socketOutput
        var testDescription: String { rawValue }

        func apply(to machine: inout Machine) -> [ConnectionAction] {
            let now = 5.0
            switch self {
            case .bytesArrived:
                machine.bytesArrived(now: now)
                return []
            case .inputExhausted: return machine.inputExhausted(partial: true, now: now)
            case .continueExpected: return machine.continueExpected(now: now)
            case .requestDecoded:
                machine.requestDecoded(keepAlive: true, isHead: false, now: now)
                return []
            case .replyReady: return machine.replyReady(reply(.respond(ok)), now: now)
            case .decodeFailed: return machine.decodeFailed(HTTPError(.badRequest, "bad"), now: now)
            case .peerClosed: return machine.peerClosed()
            case .outputProgressed:
                machine.outputProgressed(now: now)
                return []
            case .outputDrained: return machine.outputDrained(now: now)
            case .failed: return machine.failed()
            case .timerFired: return machine.timerFired(now: machine.deadline ?? 100_000)
            case .frameArrived: return machine.webSocketReceived([.ping([1])], failure: nil, now: now)
            case .socketOutput: return machine.webSocketOutputs([WebSocketOutput(.text("hi"))], now: now)
            }
        }
    }

    static func describe(_ state: Machine.State) -> String {
        switch state {
        case .reading(let started): started.map { "reading(\(Int($0)))" } ?? "reading"
        case .awaitingReply: "awaiting"
        case .delaying(let until): "delaying(\(Int(until)))"
        case .streaming(let nextAt): "streaming(\(Int(nextAt)))"
        case .silent: "silent"
        case .lingering(let until): "lingering(\(Int(until)))"
        case .closingAfterFlush: "closing"
        case .closed: "closed"
        case .webSocket: "webSocket"
        }
    }

    /// A handler that sends nothing: the state machine never calls it (its connection does).
    final class SilentHandler: WebSocketHandler {
        func opened(_ socket: WebSocketChannel) -> [WebSocketOutput] { [] }
        func received(_ message: WebSocketMessage, on socket: WebSocketChannel) -> [WebSocketOutput] { [] }
        func sent(_ message: WebSocketMessage, on socket: WebSocketChannel) {}
        func closed(_ socket: WebSocketChannel, code: UInt16?, reason: String) {}
    }

    static let upgrade = WebSocketAccept(
        handshake: try! WebSocketHandshake(
            request: Request(
                method: "GET", target: "/live",
                headers: HTTPHeaders([
                    ("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Version", "13"),
                    ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
                ]))), handler: SilentHandler())

    /// Every (state, event) pair: the actions, then the state after, as `action, action -> state`.
    static let expected: [Start: [Event: String]] = [
        .idle: [
            .bytesArrived: "-> reading", .inputExhausted: "-> reading(5)", .continueExpected: "send 100 -> reading",
            .requestDecoded: "-> awaiting", .replyReady: "-> reading",
            .decodeFailed: "send error 400 -> lingering(1005)",
            .peerClosed: "-> reading", .outputProgressed: "-> reading", .outputDrained: "-> reading",
            .failed: "close -> closed",
            .timerFired: "close -> closed",
            .frameArrived: "-> reading", .socketOutput: "-> reading",
        ],
        .partial: [
            .bytesArrived: "-> reading(0)", .inputExhausted: "-> reading(0)",
            .continueExpected: "send 100 -> reading(0)", .requestDecoded: "-> awaiting", .replyReady: "-> reading(0)",
            .decodeFailed: "send error 400 -> lingering(1005)", .peerClosed: "-> reading(0)",
            .outputProgressed: "-> reading(0)", .outputDrained: "-> reading(0)", .failed: "close -> closed",
            .timerFired: "send error 408 -> lingering(11000)",
            .frameArrived: "-> reading(0)", .socketOutput: "-> reading(0)",
        ],
        .awaiting: [
            .bytesArrived: "-> awaiting", .inputExhausted: "-> awaiting", .continueExpected: "-> awaiting",
            .requestDecoded: "-> awaiting", .replyReady: "send 200, finish -> reading", .decodeFailed: "-> awaiting",
            .peerClosed: "-> awaiting", .outputProgressed: "-> awaiting", .outputDrained: "-> awaiting",
            .failed: "close -> closed",
            .timerFired: "-> awaiting",
            .frameArrived: "-> awaiting", .socketOutput: "-> awaiting",
        ],
        .delaying: [
            .bytesArrived: "-> delaying(100)", .inputExhausted: "-> delaying(100)",
            .continueExpected: "-> delaying(100)", .requestDecoded: "-> delaying(100)",
            .replyReady: "-> delaying(100)", .decodeFailed: "-> delaying(100)", .peerClosed: "-> delaying(100)",
            .outputProgressed: "-> delaying(100)", .outputDrained: "-> delaying(100)", .failed: "close -> closed",
            .timerFired: "send 200, finish -> reading",
            .frameArrived: "-> delaying(100)", .socketOutput: "-> delaying(100)",
        ],
        .streaming: [
            .bytesArrived: "-> streaming(10)", .inputExhausted: "-> streaming(10)",
            .continueExpected: "-> streaming(10)", .requestDecoded: "-> streaming(10)",
            .replyReady: "-> streaming(10)", .decodeFailed: "-> streaming(10)", .peerClosed: "finish, close -> closed",
            .outputProgressed: "-> streaming(10)", .outputDrained: "-> streaming(10)",
            .failed: "finish, close -> closed",
            .timerFired: "send piece 3 -> streaming(20)",
            .frameArrived: "-> streaming(10)", .socketOutput: "-> streaming(10)",
        ],
        .silent: [
            .bytesArrived: "-> silent", .inputExhausted: "-> silent", .continueExpected: "-> silent",
            .requestDecoded: "-> silent", .replyReady: "-> silent", .decodeFailed: "-> silent",
            .peerClosed: "close -> closed", .outputProgressed: "-> silent", .outputDrained: "-> silent",
            .failed: "close -> closed",
            .timerFired: "-> silent",
            .frameArrived: "-> silent", .socketOutput: "-> silent",
        ],
        .lingering: [
            .bytesArrived: "-> lingering(1000)", .inputExhausted: "-> lingering(1000)",
            .continueExpected: "-> lingering(1000)", .requestDecoded: "-> lingering(1000)",
            .replyReady: "-> lingering(1000)", .decodeFailed: "-> lingering(1000)", .peerClosed: "close -> closed",
            .outputProgressed: "-> lingering(1000)", .outputDrained: "shutdown write -> lingering(1000)",
            .failed: "close -> closed",
            .timerFired: "close -> closed",
            .frameArrived: "-> lingering(1000)", .socketOutput: "-> lingering(1000)",
        ],
        .closing: [
            .bytesArrived: "-> closing", .inputExhausted: "-> closing", .continueExpected: "-> closing",
            .requestDecoded: "-> closing", .replyReady: "-> closing", .decodeFailed: "-> closing",
            .peerClosed: "-> closing", .outputProgressed: "-> closing", .outputDrained: "close -> closed",
            .failed: "close -> closed",
            // A client that takes none of the answer for the idle timeout has stalled.
            .timerFired: "write stalled, close -> closed",
            .frameArrived: "-> closing", .socketOutput: "-> closing",
        ],
        .closed: Dictionary(uniqueKeysWithValues: Event.allCases.map { ($0, "-> closed") }),
        .webSocket: [
            .bytesArrived: "-> webSocket", .inputExhausted: "-> webSocket", .continueExpected: "-> webSocket",
            .requestDecoded: "-> webSocket", .replyReady: "-> webSocket", .decodeFailed: "-> webSocket",
            .peerClosed: "closed - the client closed the connection, close -> closed",
            .outputProgressed: "-> webSocket", .outputDrained: "-> webSocket",
            .failed: "closed - the connection broke, close -> closed",
            // Quiet for the idle timeout: a ping.
            .timerFired: "send raw 2 -> webSocket",
            .frameArrived: "send raw 3 -> webSocket", .socketOutput: "send raw 4, sent text hi -> webSocket",
        ],
    ]

    @Test(arguments: Start.allCases, Event.allCases)
    func everyStateAndEvent_hasItsOutcome(_ start: Start, _ event: Event) throws {
        var machine = start.machine()
        let actions = event.apply(to: &machine)
        let outcome = (actions.map(\.summary).joined(separator: ", ") + " -> " + Self.describe(machine.state))
            .trimmingPrefix(" ")
        #expect(String(outcome) == Self.expected[start]?[event])
    }

    // MARK: Timers, with the clock stepped by hand

    @Test func idleTimeout_countsFromTheLastActivity() {
        var machine = Machine(timeouts: Self.timeouts, now: 0)
        #expect(machine.deadline == 30_000)
        machine.bytesArrived(now: 20_000)
        #expect(machine.deadline == 50_000)
        #expect(machine.timerFired(now: 49_999).isEmpty, "not due yet")
        #expect(machine.timerFired(now: 50_000).map(\.summary) == ["close"])
    }

    @Test func whileOutputIsPending_theIdleTimeoutCountsFromTheClientsLastTake_andRestartsWhenItDrains() {
        var machine = Machine(timeouts: Self.timeouts, now: 0)
        _ = machine.continueExpected(now: 0)
        #expect(machine.deadline == 30_000)
        machine.outputProgressed(now: 10_000)
        #expect(machine.deadline == 40_000, "taking part of the output is progress")
        _ = machine.outputDrained(now: 40_000)
        #expect(machine.deadline == 70_000)
    }

    @Test func aClientThatTakesNoneOfItsAnswer_isClosedAndCountedAfterTheIdleTimeout() {
        var machine = Machine(timeouts: Self.timeouts, now: 0)
        machine.requestDecoded(keepAlive: true, isHead: false, now: 1_000)
        _ = machine.replyReady(Self.reply(.respond(Self.ok)), now: 1_000)
        machine.bytesArrived(now: 20_000)
        #expect(machine.deadline == 31_000, "bytes from the client are not progress on the output")
        #expect(machine.timerFired(now: 30_999).isEmpty)
        #expect(machine.timerFired(now: 31_000).map(\.summary) == ["write stalled", "close"])
        #expect(machine.isClosed)
    }

    @Test func aPacedBody_thatTheClientReads_neverStalls() {
        var machine = Machine(timeouts: Machine.Timeouts(idle: 100, header: 100), now: 0)
        machine.requestDecoded(keepAlive: true, isHead: false, now: 0)
        let pieces = (0..<5).map { _ in BodyPiece([1], pauseMs: 80) }
        _ = machine.replyReady(Self.reply(.stream(Self.ok, pieces: pieces, chunked: false)), now: 0)
        var now = 0.0
        // Bounded: 5 pieces take 5 timer firings; a machine that stops moving fails here instead of looping.
        for _ in 0..<20 {
            guard !machine.isClosed, case .streaming = machine.state else { break }
            now = machine.deadline ?? now
            let actions = machine.timerFired(now: now)
            #expect(!actions.map(\.summary).contains("write stalled"))
            _ = machine.outputDrained(now: now)
        }
        #expect(machine.state == .reading(requestStarted: nil), "all 5 pieces over 400 ms, idle timeout 100 ms")
    }

    /// How a connection comes to answer with an error and linger.
    enum ErrorAnswer: String, CaseIterable, CustomTestStringConvertible {
        case badRequest, headerTimeout
        var testDescription: String { rawValue }
    }

    /// A client that stops reading while its error answer goes out is a write stall like any other: with an idle
    /// timeout shorter than the linger, it is closed and counted at the idle timeout, not held until the linger ends.
    @Test(arguments: ErrorAnswer.allCases)
    func aClientThatTakesNoneOfItsErrorAnswer_isClosedAsAWriteStall(_ cause: ErrorAnswer) {
        var machine = Machine(timeouts: Machine.Timeouts(idle: 100, header: 50, linger: 1000), now: 0)
        let answeredAt: Double
        switch cause {
        case .badRequest:
            #expect(machine.decodeFailed(HTTPError(.badRequest, "x"), now: 10).map(\.summary) == ["send error 400"])
            answeredAt = 10
        case .headerTimeout:
            _ = machine.inputExhausted(partial: true, now: 10)
            #expect(machine.timerFired(now: 60).map(\.summary) == ["send error 408"])
            answeredAt = 60
        }
        #expect(machine.state == .lingering(until: answeredAt + 1000))
        #expect(machine.deadline == answeredAt + 100, "the error answer waits for the client")
        #expect(machine.timerFired(now: answeredAt + 99).isEmpty)
        #expect(machine.timerFired(now: answeredAt + 100).map(\.summary) == ["write stalled", "close"])
        #expect(machine.isClosed)
    }

    /// An answer that leaves the stream unusable ends the connection once its bytes are out, even though the
    /// request asked to keep it alive: no further request is read on it.
    @Test(arguments: [Reply.Action.raw(Array("not HTTP".utf8)), .partial(ok, withholding: 1)], [false, true])
    func aBrokenAnswer_closesTheConnectionAfterItsBytes_evenOnKeepAlive(_ action: Reply.Action, isHead: Bool) {
        var machine = Machine(timeouts: Self.timeouts, now: 0)
        machine.requestDecoded(keepAlive: true, isHead: isHead, now: 0)
        _ = machine.replyReady(Self.reply(action), now: 0)
        #expect(machine.state == .closingAfterFlush)
        #expect(!machine.wantsRead && !machine.decodesRequests)
        #expect(machine.outputDrained(now: 1).map(\.summary) == ["close"])
        #expect(machine.isClosed)
    }

    @Test func headerTimeout_countsFromTheFirstByteOfTheRequest_andAnswers408() throws {
        var machine = Machine(timeouts: Self.timeouts, now: 0)
        _ = machine.inputExhausted(partial: true, now: 2_000)
        _ = machine.inputExhausted(partial: true, now: 9_000)
        #expect(machine.deadline == 12_000)
        let actions = machine.timerFired(now: 12_000)
        guard case .send(.error(let error)) = try #require(actions.first) else {
            Issue.record("expected an error answer, got \(actions.map(\.summary))")
            return
        }
        #expect(error.status == .requestTimeout)
        #expect(error.message.contains("10000 ms"))
        #expect(machine.state == .lingering(until: 13_000))
    }

    @Test func aCompleteRequest_stopsTheHeaderTimer() {
        var machine = Machine(timeouts: Self.timeouts, now: 0)
        _ = machine.inputExhausted(partial: true, now: 1_000)
        machine.requestDecoded(keepAlive: true, isHead: false, now: 1_500)
        _ = machine.replyReady(Self.reply(.respond(Self.ok)), now: 1_500)
        _ = machine.outputDrained(now: 1_600)
        _ = machine.inputExhausted(partial: false, now: 1_600)
        #expect(machine.deadline == 31_600, "idle again, no 408 pending")
    }

    @Test func delay_holdsTheReplyUntilItsDeadline() {
        var machine = Machine(timeouts: Self.timeouts, now: 0)
        machine.requestDecoded(keepAlive: true, isHead: false, now: 10)
        #expect(machine.replyReady(Self.reply(.respond(Self.ok), delayMs: 250), now: 10).isEmpty)
        #expect(machine.deadline == 260)
        #expect(machine.timerFired(now: 259).isEmpty)
        #expect(machine.timerFired(now: 260).map(\.summary) == ["send 200", "finish"])
    }

    @Test func linger_shutsWritingWhenDrained_andClosesAtItsEnd() {
        var machine = Machine(timeouts: Self.timeouts, now: 0)
        _ = machine.decodeFailed(HTTPError(.badRequest, "x"), now: 100)
        #expect(machine.outputDrained(now: 120).map(\.summary) == ["shutdown write"])
        #expect(machine.outputDrained(now: 130).isEmpty, "shut down once")
        #expect(machine.wantsRead && machine.discardsInput)
        #expect(machine.timerFired(now: 1_100).map(\.summary) == ["close"])
    }

    @Test func streamedBody_sendsEachPieceAfterItsPause_thenFinishes() {
        var machine = Machine(timeouts: Self.timeouts, now: 0)
        machine.requestDecoded(keepAlive: true, isHead: false, now: 0)
        let pieces = [
            BodyPiece([1], pauseMs: 0), BodyPiece([2, 2], pauseMs: 50),
            BodyPiece([3, 3, 3], pauseMs: 0),
        ]
        let start = machine.replyReady(Self.reply(.stream(Self.ok, pieces: pieces, chunked: true)), now: 0)
        #expect(start.map(\.summary) == ["send head 200 chunked", "send piece 1"])
        #expect(machine.deadline == 50)
        #expect(
            machine.timerFired(now: 50).map(\.summary) == ["send piece 2", "send piece 3", "send last chunk", "finish"])
        #expect(machine.state == .reading(requestStarted: nil))
    }

    @Test func streamedBody_byLength_announcesItsLength_andHEADGetsTheHeadOnly() {
        var machine = Machine(timeouts: Self.timeouts, now: 0)
        machine.requestDecoded(keepAlive: true, isHead: false, now: 0)
        let pieces = [BodyPiece([1, 2], pauseMs: 0), BodyPiece([3], pauseMs: 0)]
        let actions = machine.replyReady(Self.reply(.stream(Self.ok, pieces: pieces, chunked: false)), now: 0)
        #expect(actions.map(\.summary) == ["send head 200 length 3", "send piece 2", "send piece 1", "finish"])
        var head = Machine(timeouts: Self.timeouts, now: 0)
        head.requestDecoded(keepAlive: true, isHead: true, now: 0)
        #expect(
            head.replyReady(Self.reply(.stream(Self.ok, pieces: pieces, chunked: false)), now: 0).map(\.summary) == [
                "send head 200 length 3", "finish",
            ])
        // A HEAD answer is framed as its GET would be (RFC 9110, 9.3.2): chunked, and nothing follows the head.
        var chunkedHead = Machine(timeouts: Self.timeouts, now: 0)
        chunkedHead.requestDecoded(keepAlive: true, isHead: true, now: 0)
        let headActions = chunkedHead.replyReady(
            Self.reply(.stream(Self.ok, pieces: pieces, chunked: true)), now: 0)
        #expect(headActions.map(\.summary) == ["send head 200 chunked", "finish"])
    }

    @Test(arguments: [
        (Reply.Action.drop, ["finish", "close"]),
        (.reset, ["reset on close", "finish", "close"]),
        (.partial(ok, withholding: 2), ["send partial -2", "finish"]),
        (.raw([1, 2, 3]), ["send raw 3", "finish"]),
        (.respond(ok), ["send 200 head-only", "finish"]),
    ])
    func faults_endTheConnection_andHEADGetsNoBody(_ action: Reply.Action, expected: [String]) {
        var machine = Machine(timeouts: Self.timeouts, now: 0)
        machine.requestDecoded(keepAlive: true, isHead: true, now: 0)
        #expect(machine.replyReady(Self.reply(action), now: 0).map(\.summary) == expected)
    }

    @Test func connectionClose_closesOnceTheAnswerIsOut() {
        var machine = Machine(timeouts: Self.timeouts, now: 0)
        machine.requestDecoded(keepAlive: false, isHead: false, now: 0)
        #expect(
            machine.replyReady(Self.reply(.respond(Self.ok)), now: 0).map(\.summary) == ["send 200 close", "finish"])
        #expect(machine.state == .closingAfterFlush)
        #expect(!machine.wantsRead)
        #expect(machine.outputDrained(now: 1).map(\.summary) == ["close"])
    }

    @Test func aClientThatLeavesWhileItsReplyIsAwaited_isAnsweredThenClosed() {
        var machine = Machine(timeouts: Self.timeouts, now: 0)
        machine.requestDecoded(keepAlive: true, isHead: false, now: 0)
        #expect(machine.peerClosed().isEmpty)
        #expect(machine.replyReady(Self.reply(.respond(Self.ok)), now: 5).map(\.summary) == ["send 200", "finish"])
        #expect(machine.inputExhausted(partial: false, now: 5).isEmpty)
        #expect(machine.state == .closingAfterFlush)
        #expect(machine.outputDrained(now: 6).map(\.summary) == ["close"])
    }

    @Test func endOfStreamBetweenRequests_closesAtOnce() {
        var machine = Machine(timeouts: Self.timeouts, now: 0)
        _ = machine.peerClosed()
        #expect(machine.inputExhausted(partial: false, now: 1).map(\.summary) == ["close"])
    }

    /// Found over a socket: the pieces after a pause did not count as pending output, so the close came first.
    @Test func aStreamThatEndsTheConnection_closesOnlyAfterItsLastPieceIsOut() {
        var machine = Machine(timeouts: Self.timeouts, now: 0)
        machine.requestDecoded(keepAlive: false, isHead: false, now: 0)
        let pieces = [BodyPiece([1], pauseMs: 0), BodyPiece([2, 2], pauseMs: 20)]
        _ = machine.replyReady(Self.reply(.stream(Self.ok, pieces: pieces, chunked: true)), now: 0)
        #expect(machine.outputDrained(now: 1).isEmpty)
        #expect(machine.timerFired(now: 20).map(\.summary) == ["send piece 2", "send last chunk", "finish"])
        #expect(machine.state == .closingAfterFlush)
        #expect(machine.outputDrained(now: 21).map(\.summary) == ["close"])
    }

    /// How a stream ends: properly with the last chunk, cut without it, or aborted with a reset once its pieces
    /// are out; each reports how many pieces went out.
    @Test(arguments: [
        (StreamEnd.complete, ["send piece 2", "send last chunk", "stream ended after 2", "finish"], true),
        (.drop, ["send piece 2", "stream ended after 2", "finish"], false),
        (.reset, ["send piece 2", "stream ended after 2", "reset on close", "finish"], false),
    ])
    func aStream_endsAsItsReplySays_andReportsThePiecesSent(
        _ end: StreamEnd, expected: [String], keepsConnection: Bool
    ) {
        var machine = Machine(timeouts: Self.timeouts, now: 0)
        machine.requestDecoded(keepAlive: true, isHead: false, now: 0)
        let pieces = [BodyPiece([1], pauseMs: 0), BodyPiece([2, 2], pauseMs: 20)]
        var reply = Self.reply(.stream(Self.ok, pieces: pieces, chunked: true, end: end))
        reply.onStreamEnd = { _ in }
        #expect(
            machine.replyReady(reply, now: 0).map(\.summary) == ["send head 200 chunked", "send piece 1"])
        #expect(machine.timerFired(now: 20).map(\.summary) == expected)
        if keepsConnection {
            #expect(machine.state == .reading(requestStarted: nil))
        } else {
            #expect(machine.state == .closingAfterFlush)
            #expect(machine.outputDrained(now: 21).map(\.summary) == ["close"])
        }
    }

    /// A stream whose client leaves, or whose server stops, still reports how far it got.
    @Test(arguments: ["failed", "serverStopping"])
    func aStreamCutShortByTheClientOrServer_reportsThePiecesSentSoFar(_ cause: String) {
        var machine = Machine(timeouts: Self.timeouts, now: 0)
        machine.requestDecoded(keepAlive: true, isHead: false, now: 0)
        let pieces = [BodyPiece([1], pauseMs: 0), BodyPiece([2], pauseMs: 0), BodyPiece([3], pauseMs: 500)]
        var reply = Self.reply(.stream(Self.ok, pieces: pieces, chunked: true))
        reply.onStreamEnd = { _ in }
        _ = machine.replyReady(reply, now: 0)
        let actions = cause == "failed" ? machine.failed() : machine.serverStopping()
        #expect(actions.map(\.summary) == ["stream ended after 2", "finish", "close"], "reported and logged")
        #expect(machine.timerFired(now: 500).isEmpty, "nothing more after the close")
    }

    /// A stream cut before its first event still sends its head, then breaks; HEAD gets the head and a report of 0.
    @Test func aStreamOfNoPieces_thatBreaks_sendsItsHeadThenCloses() {
        var machine = Machine(timeouts: Self.timeouts, now: 0)
        machine.requestDecoded(keepAlive: true, isHead: false, now: 0)
        var reply = Self.reply(.stream(Self.ok, pieces: [], chunked: true, end: .drop))
        reply.onStreamEnd = { _ in }
        #expect(
            machine.replyReady(reply, now: 0).map(\.summary) == [
                "send head 200 chunked", "stream ended after 0", "finish",
            ])
        #expect(machine.state == .closingAfterFlush)
        var head = Machine(timeouts: Self.timeouts, now: 0)
        head.requestDecoded(keepAlive: true, isHead: true, now: 0)
        #expect(
            head.replyReady(reply, now: 0).map(\.summary) == [
                "send head 200 chunked", "stream ended after 0", "finish",
            ])
    }

    /// A stream or a socket whose connection ends while its reply waits out its delay is reported too: its entry
    /// must not look live forever.
    @Test func aStreamOrSocketThatDiesInItsDelay_isReportedAndLogged() {
        var stream = Machine(timeouts: Self.timeouts, now: 0)
        stream.requestDecoded(keepAlive: true, isHead: false, now: 0)
        var reply = Self.reply(.stream(Self.ok, pieces: [BodyPiece([1], pauseMs: 0)], chunked: true), delayMs: 500)
        reply.onStreamEnd = { _ in }
        #expect(stream.replyReady(reply, now: 0).isEmpty)
        #expect(stream.failed().map(\.summary) == ["stream ended after 0", "finish", "close"])
        var socket = Machine(timeouts: Self.timeouts, now: 0)
        socket.requestDecoded(keepAlive: true, isHead: false, now: 0)
        _ = socket.replyReady(Self.reply(.webSocket(Self.upgrade), delayMs: 500), now: 0)
        #expect(socket.serverStopping().map(\.summary) == ["closed - the server stopped", "finish", "close"])
    }
}

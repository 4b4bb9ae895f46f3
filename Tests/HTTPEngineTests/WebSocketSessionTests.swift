import HTTPMessages
import TestTurns
import Testing

@testable import HTTPEngine

/// An open WebSocket as a pure value, with a clock the test steps: what goes out when, the closing handshake from
/// either side, pings, and what is ignored once closing.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct WebSocketSessionTests {
    typealias Session = WebSocketSession

    static func describe(_ actions: [Session.Action]) -> [String] {
        actions.map { action in
            switch action {
            case .write(let bytes, let message):
                let opcode = bytes[0] & 0x0F
                return message.map { "write \($0.summary)" } ?? "write opcode \(opcode)"
            case .received(let message): return "received \(message.summary)"
            case .end(let code, let reason, let abort):
                return "end \(code.map(String.init) ?? "-") \(reason)\(abort ? " (abort)" : "")"
            }
        }
    }

    @Test func outputs_goOutAtTheirTimes_inTheOrderHandedOver() {
        var session = Session(now: 0, pingIntervalMs: 1000)
        let now = session.schedule(
            [
                WebSocketOutput(.text("b"), delayMs: 50), WebSocketOutput(.text("a")),
                WebSocketOutput(.text("c"), delayMs: 50),
            ], now: 0)
        #expect(Self.describe(now) == ["write text a"])
        #expect(session.deadline == 50)
        #expect(Self.describe(session.timerFired(now: 49)) == [])
        #expect(Self.describe(session.timerFired(now: 50)) == ["write text b", "write text c"])
        #expect(session.deadline == 1000, "then the idle ping")
    }

    /// A fragmented message's frames go out 100 ms apart, each written on its own so that a client reads them apart
    /// (written together, they reached a client in one read); the message is recorded with its last frame, and the
    /// next message waits for it: nothing may come between a message's frames.
    @Test func aFragmentedMessage_sendsEachFrameOnItsOwn_andHoldsTheNextMessageBack() {
        var session = Session(now: 0, pingIntervalMs: 1000)
        let first = session.schedule(
            [WebSocketOutput(.fragmented(.text("abcdef"), frames: 3)), WebSocketOutput(.text("next"))], now: 0)
        #expect(Self.describe(first) == ["write opcode 1"])
        guard case .write(let opening, _) = first.first else { return }
        #expect(opening == WebSocketFrame.encode(.text, Array("ab".utf8), fin: false))
        #expect(session.deadline == 100)
        #expect(Self.describe(session.timerFired(now: 99)) == [])
        #expect(Self.describe(session.timerFired(now: 100)) == ["write opcode 0"])
        #expect(session.deadline == 200)
        #expect(Self.describe(session.timerFired(now: 200)) == ["write text abcdef", "write text next"])
        #expect(session.deadline == 1000, "then the idle ping")
    }

    @Test func theServersClose_waitsForTheClients_thenEnds_andIgnoresMessagesMeanwhile() {
        var session = Session(now: 0, pingIntervalMs: 1000)
        let actions = session.schedule(
            [WebSocketOutput(.close(code: 1001, reason: "bye")), .init(.text("late"))], now: 0)
        #expect(Self.describe(actions) == ["write opcode 8"], "nothing after the close frame")
        #expect(session.phase == .closing(until: 1000))
        #expect(Self.describe(session.receive([.text("ignored"), .ping([7])], now: 10)) == ["write opcode 10"])
        #expect(Self.describe(session.receive([.close(code: 1001, reason: "")], now: 20)) == ["end 1001 "])
        #expect(session.phase == .closed && session.deadline == nil)
    }

    @Test func aCloseTheClientNeverAnswers_endsTheConnectionAtItsDeadline() {
        var session = Session(now: 0, pingIntervalMs: 500)
        _ = session.schedule([WebSocketOutput(.close(code: 1000, reason: ""))], now: 0)
        #expect(Self.describe(session.timerFired(now: 500)) == ["end - the client did not answer the close (abort)"])
    }

    @Test func theClientsClose_isEchoed_andEndsTheSocket() {
        var session = Session(now: 0, pingIntervalMs: 500)
        let actions = session.receive([.text("hi"), .close(code: nil, reason: ""), .text("after")], now: 5)
        #expect(Self.describe(actions) == ["received text hi", "write opcode 8", "end - "])
    }

    @Test func aQuietClient_isPinged_andAnAnsweredPingKeepsItOpen_anUnansweredOneCloses() {
        var session = Session(now: 0, pingIntervalMs: 100)
        #expect(Self.describe(session.timerFired(now: 100)) == ["write opcode 9"])
        #expect(session.deadline == 200)
        session.heard(now: 150)
        #expect(Self.describe(session.receive([.pong([])], now: 150)) == [])
        #expect(session.deadline == 250, "the next ping a whole interval after the client was last heard")
        #expect(Self.describe(session.timerFired(now: 250)) == ["write opcode 9"])
        #expect(
            Self.describe(session.timerFired(now: 350)) == ["write opcode 8", "end 1001 ping unanswered for 100 ms"])
    }

    @Test func aViolation_closesWithItsCode_andADrop_abortsWithoutAFrame() {
        var session = Session(now: 0, pingIntervalMs: 100)
        let failure = WebSocketDecoder.Failure(code: 1007, reason: "a text message that is not UTF-8")
        #expect(
            Self.describe(session.fail(failure)) == ["write opcode 8", "end 1007 a text message that is not UTF-8"])
        #expect(session.fail(failure).isEmpty, "ended once")
        var dropped = Session(now: 0, pingIntervalMs: 100)
        #expect(
            Self.describe(dropped.schedule([WebSocketOutput(.drop, delayMs: 0)], now: 0)) == [
                "end - dropped by the server"
            ])
    }

    /// One close frame per side (RFC 6455, 5.5.1): a violation after the server's close ends the socket without
    /// a second one; a drop lets out what was queued before it.
    @Test func aViolationWhileClosing_sendsNoSecondCloseFrame_andADropFlushesFirst() {
        var session = Session(now: 0, pingIntervalMs: 100)
        _ = session.schedule([WebSocketOutput(.close(code: 1000, reason: ""))], now: 0)
        let failure = WebSocketDecoder.Failure(code: 1002, reason: "a client frame must be masked")
        #expect(Self.describe(session.fail(failure)) == ["end 1002 a client frame must be masked"])
        var dropping = Session(now: 0, pingIntervalMs: 100)
        #expect(
            Self.describe(dropping.schedule([WebSocketOutput(.text("hi")), WebSocketOutput(.drop)], now: 0)) == [
                "write text hi", "end - dropped by the server",
            ])
    }

    /// An accept is its handshake and the very handler that answers it; a channel is its loop, descriptor and
    /// connection, so a registry keyed by channels tells sockets apart.
    @Test func acceptsAndChannels_compareByIdentity() throws {
        let handshake = try WebSocketHandshake(
            request: Request(
                method: "GET", target: "/live",
                headers: HTTPHeaders([
                    ("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Version", "13"),
                    ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
                ])))
        let handler = ConnectionStateMachineTests.SilentHandler()
        #expect(
            WebSocketAccept(handshake: handshake, handler: handler) == .init(handshake: handshake, handler: handler))
        #expect(
            WebSocketAccept(handshake: handshake, handler: handler)
                != .init(handshake: handshake, handler: ConnectionStateMachineTests.SilentHandler()))
        let loop = try LoopChannel()
        let channel = WebSocketChannel(channel: loop, fd: 7, connection: 1)
        let sockets: Set = [channel, WebSocketChannel(channel: loop, fd: 7, connection: 1)]
        #expect(sockets.count == 1)
        #expect(channel != WebSocketChannel(channel: loop, fd: 7, connection: 2), "a later connection on fd 7")
        channel.send([WebSocketOutput(.text("queued"))])
        guard case .socket(let fd, let connection, let outputs)? = loop.take().first else {
            Issue.record("nothing was posted to the loop")
            return
        }
        #expect(fd == 7 && connection == 1 && outputs == [WebSocketOutput(.text("queued"))])
    }
}

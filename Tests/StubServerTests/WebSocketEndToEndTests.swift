import Foundation
import Locking
import StubTestSupport
import TestTurns
import Testing

@testable import StubCore
@testable import StubServer

/// WebSocket stubs over real sockets with a raw client: the handshake, MockData's live-updates script, the
/// protocol's close codes, messages pushed from a test and from the admin API, pings, and the journal.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct WebSocketEndToEndTests {
    static let hello = #"{"channel":"top-albums","type":"hello"}"#

    private func withMockData(
        _ configuration: StubServer.Configuration = StubServer.Configuration(),
        _ body: (StubServer) async throws -> Void
    ) async throws {
        try await withStubServer(catalog: try await MockData.catalog(), configuration: configuration, body)
    }

    /// Opens `/live` with the live-updates protocol (variant `variant`, if any) and reads its greeting.
    private static func open(_ port: Int, variant: String? = nil) async throws -> RawWebSocket {
        try await RawWebSocket(
            port: port, path: "/live", protocols: ["other", "catalog.v1"],
            extraHeaders: variant.map { "X-Stub-Variant: \($0)\r\n" } ?? "")
    }

    /// The close the journal records for the last live-updates socket, once it records one (within 15 s).
    private static func journaledClose(_ server: StubServer) async throws -> String? {
        try await waitUntil("the close is journaled") {
            server.journal(JournalQuery(stub: "live-updates")).last?.webSocketClose != nil
        }
        return server.journal(JournalQuery(stub: "live-updates")).last?.webSocketClose
    }

    @Test func theHandshake_isAccepted_andTheScriptGreetsAndReplies() async throws {
        try await withMockData { server in
            let port = server.port
            let socket = try await Self.open(port)
            var replies = [try await socket.readText()]
            try await socket.send(text: #"{"type":"ping"}"#)
            replies.append(try await socket.readText())
            try await socket.send(text: #"{"type":"subscribe","channel":"top-albums"}"#)
            replies.append(try await socket.readText())
            replies.append(try await socket.readText())
            try await socket.send(text: "unknown message: no step answers it")
            try await socket.send(text: #"{"type":"ping"}"#)
            replies.append(try await socket.readText())
            let handshake = await socket.handshake
            #expect(handshake.status == 101)
            #expect(handshake.header("Sec-WebSocket-Accept") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=", "RFC 6455's example")
            #expect(handshake.header("Sec-WebSocket-Protocol") == "catalog.v1", "chosen from the client's list")
            #expect(
                replies == [
                    Self.hello, #"{"type":"pong"}"#, #"{"channel":"top-albums","type":"subscribed"}"#,
                    #"{"album":"Midnights","artist":"Taylor Swift","rank":1,"type":"chart"}"#, #"{"type":"pong"}"#,
                ])
        }
    }

    /// What breaks the protocol closes the socket with the code RFC 6455 names, and the connection after it.
    @Test(arguments: [
        (RawWebSocket.frame(opcode: 1, Array("hi".utf8), mask: nil), 1002 as UInt16, "a client frame must be masked"),
        (RawWebSocket.frame(opcode: 1, [0x68, 0xFF, 0x69]), 1007, "a text message that is not UTF-8"),
        (RawWebSocket.frame(opcode: 1, Array(repeating: 0x61, count: 2_000)), 1009, "a message over 1024 bytes"),
        (RawWebSocket.frame(opcode: 9, Array("ping".utf8), fin: false), 1002, "a fragmented control frame"),
    ])
    func aProtocolViolation_closesWithItsCode(_ frame: [UInt8], code: UInt16, reason: String) async throws {
        var configuration = StubServer.Configuration()
        configuration.maxBodyBytes = 1024
        try await withMockData(configuration) { server in
            let port = server.port
            let socket = try await Self.open(port)
            _ = try await socket.readText()
            try await socket.send(frame)
            let (close, rest) = (try await socket.readFrame(), await socket.client.readToEnd())
            #expect(close.closeCode == code)
            #expect(close.closeReason == reason)
            #expect(rest.isEmpty, "nothing after the close frame, then the connection ends")
            #expect(try await Self.journaledClose(server) == "\(code) \(reason)")
        }
    }

    @Test func messagesPushedFromATestAndFromTheAdminAPI_arrive_andTheJournalHasBothWays() async throws {
        try await withMockData { server in
            let port = server.port
            let socket = try await Self.open(port)
            _ = try await socket.readText()
            #expect(server.webSockets(stub: "live-updates").count == 1)
            #expect(server.webSockets(stub: "live-updates").send(#"{"type":"chart","rank":2}"#) == 1)
            let pushed = try await socket.readText()
            #expect(pushed == #"{"type":"chart","rank":2}"#)
            let client = try await RawHTTPClient(port: port)
            try await client.send(post("/__stub/websockets/live-updates/send", #"{"json": {"type": "news", "id": 7}}"#))
            let admin = try await client.readResponse()
            #expect(admin.status == 200)
            #expect(try admin.json()["sent"] as? Int == 1)
            let fromAdmin = try await socket.readText()
            #expect(fromAdmin == #"{"id":7,"type":"news"}"#)
            #expect(throws: StubServerError.invalidCloseCode(1005)) {
                try server.webSockets(stub: "live-updates").close(code: 1005)
            }
            #expect(try server.webSockets(stub: "live-updates").close(code: 4000, reason: "test over") == 1)
            let close = try await socket.readFrame()
            #expect(close.closeCode == 4000 && close.closeReason == "test over")
            try await socket.send(RawWebSocket.frame(opcode: 8, [0x0F, 0xA0]))
            try await waitUntil("the socket is closed") { server.webSockets(stub: "live-updates").count == 0 }
            let entry = try #require(server.journal(JournalQuery(stub: "live-updates")).last)
            #expect(entry.status == 101)
            #expect(
                entry.webSocketMessages == [
                    .init(.sent, text: Self.hello), .init(.sent, text: #"{"type":"chart","rank":2}"#),
                    .init(.sent, text: #"{"id":7,"type":"news"}"#),
                ])
            #expect(entry.webSocketClose == "4000")
        }
    }

    @Test(arguments: [
        ("GET /live HTTP/1.1\r\nHost: x\r\n\r\n", 400, "Upgrade: websocket is missing"),
        (
            "GET /live HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 8\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n", 426, "Sec-WebSocket-Version must be 13"
        ),
        (
            "GET /live HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                + "Sec-WebSocket-Key: short\r\n\r\n", 400, "Sec-WebSocket-Key must be 16 bytes in base64"
        ),
        ("GET /live HTTP/1.1\r\nHost: x\r\nX-Stub-Variant: refused\r\n\r\n", 401, "sign in first"),
    ])
    func aBadOrRefusedHandshake_getsAnHTTPAnswerWithTheReason(_ request: String, status: Int, reason: String)
        async throws
    {
        try await withMockData { server in
            let response = try await exchange(server, request)
            #expect(response.status == status)
            #expect(response.text.contains(reason), "\(response.text)")
            if status == 426 { #expect(response.header("Sec-WebSocket-Version") == "13") }
            #expect(server.journal(JournalQuery(stub: "live-updates")).last?.stream == nil, "no socket opened")
            #expect(server.journal(JournalQuery(stub: "live-updates")).last?.status == status)
        }
    }

    @Test func aScriptedClose_sendsItsCode_andTheConnectionEndsOnceTheClientAnswers() async throws {
        try await withMockData { server in
            let port = server.port
            let socket = try await Self.open(port, variant: "closing")
            let greeting = try await socket.readText()
            let close = try await socket.readFrame()
            try await socket.send(RawWebSocket.frame(opcode: 8, [0x03, 0xE9]))
            let rest = await socket.client.readToEnd()
            #expect(greeting == Self.hello)
            #expect(close.closeCode == 1001 && close.closeReason == "server restarting")
            #expect(rest.isEmpty)
            #expect(try await Self.journaledClose(server) == "1001")
        }
    }

    /// MockData's broken live-updates variants, as a client meets them: `bad` sends half a JSON message and then
    /// nothing, `nil` opens and sends nothing, `server-error` closes at once with 1011 and its reason.
    @Test func theBrokenVariants_sendWhatTheirScriptsSay() async throws {
        try await withMockData { server in
            let bad = try await Self.open(server.port, variant: "bad")
            #expect(try await bad.readText() == #"{"type": "hel"#)
            let empty = try await Self.open(server.port, variant: "nil")
            try await empty.send(text: #"{"type":"ping"}"#)
            try await waitUntil("the ping is journaled") {
                server.journal(JournalQuery(stub: "live-updates", variant: "nil")).last?.webSocketMessages?.count == 1
            }
            let failing = try await Self.open(server.port, variant: "server-error")
            let close = try await failing.readFrame()
            #expect(close.opcode == 8 && close.closeCode == 1011 && close.closeReason == "internal error")
            #expect(
                server.journal(JournalQuery(stub: "live-updates")).compactMap(\.variant) == [
                    "bad", "nil", "server-error",
                ])
            #expect(
                server.journal(JournalQuery(stub: "live-updates", variant: "nil")).last?.webSocketMessages
                    == [JournalEntry.WebSocketRecord(.received, text: #"{"type":"ping"}"#)],
                "nothing sent: only the client's ping")
        }
    }

    @Test func aScriptedDrop_endsTheConnectionWithoutACloseFrame() async throws {
        try await withMockData { server in
            let port = server.port
            let socket = try await Self.open(port, variant: "drop")
            let (greeting, afterwards) = (try await socket.readText(), await socket.client.readToEnd())
            #expect(greeting == Self.hello)
            #expect(afterwards.isEmpty, "no close frame: the TCP connection just ends")
        }
    }

    @Test func theClientsClose_isEchoed_withItsCode() async throws {
        try await withMockData { server in
            let port = server.port
            let socket = try await Self.open(port)
            _ = try await socket.readText()
            try await socket.send(RawWebSocket.frame(opcode: 8, [0x03, 0xE8] + Array("bye".utf8)))
            let (echo, rest) = (try await socket.readFrame(), await socket.client.readToEnd())
            #expect(echo.closeCode == 1000)
            #expect(rest.isEmpty)
            try await waitUntil("the close is journaled") {
                server.journal(JournalQuery(stub: "live-updates")).last?.webSocketClose == "1000 bye"
            }
        }
    }

    /// Control frames may come between a message's fragments: the ping is answered, then the message is.
    @Test func aFragmentedMessage_withAPingBetween_isAnsweredInOrder() async throws {
        try await withMockData { server in
            let port = server.port
            let socket = try await Self.open(port)
            _ = try await socket.readText()
            try await socket.send(RawWebSocket.frame(opcode: 1, Array(#"{"type":"#.utf8), fin: false))
            try await socket.send(RawWebSocket.frame(opcode: 9, Array("are you there".utf8)))
            try await socket.send(RawWebSocket.frame(opcode: 0, Array(#""ping"}"#.utf8)))
            let (pong, reply) = (try await socket.readFrame(), try await socket.readText())
            #expect(pong.opcode == 0xA && pong.text == "are you there")
            #expect(reply == #"{"type":"pong"}"#)
        }
    }

    /// A quiet socket is pinged after the idle timeout; answered, it stays open; unanswered, it closes with 1001.
    @Test func aQuietSocket_isPinged_andClosedOnlyWhenAPingGoesUnanswered() async throws {
        var configuration = StubServer.Configuration()
        configuration.idleTimeout = .milliseconds(1000)
        try await withMockData(configuration) { server in
            // The client must answer the first ping within the idle timeout: it plays a prompt peer.
            let frames = try await promptly { [port = server.port] in
                let socket = try await Self.open(port)
                _ = try await socket.readText()
                let first = try await socket.readFrame()
                try await socket.send(RawWebSocket.frame(opcode: 0xA, first.payload))
                return [first, try await socket.readFrame(), try await socket.readFrame()]
            }
            #expect(frames.map(\.opcode) == [9, 9, 8], "ping, answered; ping, unanswered; close")
            #expect(frames[2].closeCode == 1001 && frames[2].closeReason == "ping unanswered for 1000 ms")
        }
    }
}

import Foundation
import StubServer
import StubServerTesting
import StubTestSupport
import TestTurns
import Testing

/// `expectWebSocketMessages` against MockData's live socket: it passes on the messages both ways, in order, and
/// names the first one that differs.
@Suite(.takesTurns, .timeLimit(.minutes(1)), .stubServer())
struct WebSocketExpectationTests {
    static let hello = #"{"channel":"top-albums","type":"hello"}"#

    /// Opens the live socket, reads the greeting, sends a ping, reads the pong and closes.
    private func talk(to server: StubServer) async throws {
        let socket = try await RawWebSocket(port: server.port, path: "/live", protocols: ["catalog.v1"])
        _ = try await socket.readText()
        try await socket.send(text: #"{"type":"ping"}"#)
        _ = try await socket.readText()
        try await socket.send(RawWebSocket.frame(opcode: 8, [0x03, 0xE8]))
        _ = try await socket.readFrame()
        // Until the socket's close is journaled: its messages are complete by then.
        try await waitUntil("the socket's close to be journaled") {
            server.journal(JournalQuery(stub: "live-updates")).last?.webSocketClose != nil
        }
    }

    @Test func theMessagesBothWays_inOrder_pass() async throws {
        try await talk(to: try #require(TestStubs.current?.server))
        await expectWebSocketMessages(
            [
                .init(.sent, text: Self.hello), .init(.received, text: #"{"type":"ping"}"#),
                .init(.sent, text: #"{"type":"pong"}"#),
            ],
            stub: "live-updates")
    }

    @Test func aDifferentMessage_isNamedWithWhatTheSocketCarried() async throws {
        try await talk(to: try #require(TestStubs.current?.server))
        await withKnownIssue {
            await expectWebSocketMessages(
                [.init(.sent, text: Self.hello), .init(.received, text: "subscribe")], stub: "live-updates")
        } matching: { issue in
            issue.comments.map(\.rawValue).joined()
                == #"stub live-updates: message 2 expected received "subscribe", got received "{\"type\":\"ping\"}"; "#
                + "the socket carried:\n  sent \(Self.hello.debugDescription)\n  received "
                + #""{\"type\":\"ping\"}"\#n  sent "{\"type\":\"pong\"}""#
        }
        await withKnownIssue {
            await expectWebSocketMessages([], stub: "top-albums")
        } matching: { issue in
            issue.comments.map(\.rawValue).joined() == "stub top-albums had no WebSocket opened (expected 0 messages)"
        }
    }
}

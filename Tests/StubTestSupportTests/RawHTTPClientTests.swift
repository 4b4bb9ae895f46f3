import Foundation
import StubTestSupport
import TestTurns
import Testing

@testable import HTTPEngine

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The test client against a peer the test plays itself: a listener, and the accepted side adopted as a client.
@Suite(.takesTurns(.heavy), .timeLimit(.minutes(1)))
struct RawHTTPClientTests {
    /// A connected pair: the client, and the listener's side of its connection.
    static func connectedPair(timeout: Int = 60) async throws -> (client: RawHTTPClient, peer: RawHTTPClient) {
        let listener = try Socket.listen(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        let client = try await RawHTTPClient(port: Int(try listener.localPort()), timeout: timeout)
        var accepted: Int32?
        try await waitUntil("the connection to arrive") {
            if case .connection(let socket) = listener.accept() { accepted = socket.fd }
            return accepted != nil
        }
        return (client, RawHTTPClient(adopting: try #require(accepted), timeout: timeout))
    }

    @Test func aPeerThatSaysNothing_failsTheReadWithEAGAINAfterTheTimeout() async throws {
        // The timeout's window is what this test is about.
        let (client, peer) = try await Self.connectedPair(timeout: 1)
        let started = ContinuousClock.now
        await #expect(throws: RawHTTPClient.ClientError.readFailed(EAGAIN)) { try await client.readResponse() }
        #expect(ContinuousClock.now - started >= .milliseconds(900))
        withExtendedLifetime(peer) {}
    }

    @Test func aCancelledRead_endsAtOnce() async throws {
        let (client, peer) = try await Self.connectedPair()
        let reading = Task { try await client.readResponse() }
        try await Task.sleep(for: .milliseconds(20))
        reading.cancel()
        await #expect(throws: CancellationError.self) { try await reading.value }
        withExtendedLifetime(peer) {}
    }

    /// A listener whose queue is full drops the next handshake: that connect stays under way until the timeout.
    @Test func aConnectThatNeverCompletes_isConnectFailedWithETIMEDOUT() async throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 0) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        try #require(bound)
        let port = Int(UInt16(bigEndian: address.sin_port))
        // Never accepted: the first connections fill the queue (backlog 0 holds one), a later one cannot complete.
        var held: [RawHTTPClient] = []
        var outcome: (any Error)?
        for _ in 0..<4 where outcome == nil {
            // A window: the connect's timeout is what this test is about.
            do { held.append(try await RawHTTPClient(port: port, timeout: 1)) } catch { outcome = error }
        }
        #expect(outcome as? RawHTTPClient.ClientError == .connectFailed(ETIMEDOUT), "\(String(describing: outcome))")
    }

    @Test func aRefusedConnect_isConnectFailed() async throws {
        let refusing = try RefusingPort()
        await #expect(throws: RawHTTPClient.ClientError.connectFailed(ECONNREFUSED)) {
            try await RawHTTPClient(port: refusing.port)
        }
    }

    /// More than the socket buffers hold: the sender waits for room while the peer reads. The peer reads with
    /// `readArrivals` (on the poller's thread as bytes come) and starts promptly: a sender finds no room for as
    /// long as the peer's task waits for its first turn.
    @Test func aLargeSend_arrivesWhole() async throws {
        let (client, peer) = try await Self.connectedPair()
        let bytes = (0..<8_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let all = try await promptly {
            async let received = peer.readArrivals()
            try await client.send(bytes)
            await client.hangUp()
            return await received.flatMap(\.bytes)
        }
        #expect(all.count == bytes.count && all.elementsEqual(bytes), "every byte, in order")
    }

    @Test func arrivals_areTimedAsTheyCome_andEndWithTheClose() async throws {
        let (client, peer) = try await Self.connectedPair()
        let sent = RawHTTPClient.now()
        try await peer.send("a")
        async let arrivals = client.readArrivals()
        try await Task.sleep(for: .milliseconds(200))
        try await peer.send("b")
        await peer.hangUp()
        let pieces = await arrivals
        #expect(pieces.map { String(decoding: $0.bytes, as: UTF8.self) }.joined() == "ab")
        #expect((pieces.last?.time ?? 0) - sent >= 0.2, "b came no sooner than it was sent")
    }

    @Test(arguments: [true, false])
    func theEnd_isAResetOrAClose(_ reset: Bool) async throws {
        let (client, peer) = try await Self.connectedPair()
        if reset { await peer.reset() } else { await peer.hangUp() }
        #expect(await client.readEndsWithReset() == reset)
    }

    @Test func aResponse_isReadWithItsBody_andAnUnfinishedOneIsClosedEarly() async throws {
        let (client, peer) = try await Self.connectedPair()
        try await peer.send(
            "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nX-A: b\r\n\r\nhelloHTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nhal"
        )
        let first = try await client.readResponse()
        #expect(first.status == 200 && first.text == "hello" && first.header("x-a") == "b")
        await peer.hangUp()
        await #expect(throws: RawHTTPClient.ClientError.closedEarly(received: "3 of 9 body bytes")) {
            try await client.readResponse()
        }
    }

    @Test func arrivals_startWithWhatIsAlreadyRead_andAQuietPeerEndsThemWithoutAReset() async throws {
        // A window: a second of quiet ends the arrivals.
        let (client, peer) = try await Self.connectedPair(timeout: 1)
        try await peer.send("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
        #expect(try await client.readResponse(head: true).status == 200)
        #expect(await client.readArrivals().map { String(decoding: $0.bytes, as: UTF8.self) } == ["ok"])
        #expect(await client.readEndsWithReset() == false, "the read timed out: no reset")
        withExtendedLifetime(peer) {}
    }

    @Test func somethingThatIsNotHTTP_isMalformed() async throws {
        let (client, peer) = try await Self.connectedPair()
        try await peer.send("SSH-2.0-OpenSSH\r\n\r\n")
        await #expect(throws: RawHTTPClient.ClientError.self) { try await client.readResponse() }
    }

    /// Frames of every length encoding (7-bit, 16-bit, 64-bit), a ping skipped by `readText`, and a close ends it.
    @Test func webSocketFrames_ofEveryLength_andTheClose() async throws {
        let listener = try Socket.listen(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        let port = Int(try listener.localPort())
        async let socket = RawWebSocket(port: port, path: "/live", protocols: ["a", "b"])
        var accepted: Int32?
        try await waitUntil("the connection to arrive") {
            if case .connection(let connection) = listener.accept() { accepted = connection.fd }
            return accepted != nil
        }
        let peer = RawHTTPClient(adopting: try #require(accepted))
        var request: [UInt8] = []
        while !request.reversed().starts(with: [10, 13, 10, 13]) { request += try await peer.readExactly(1) }
        let head = String(decoding: request, as: UTF8.self)
        #expect(head.hasPrefix("GET /live HTTP/1.1\r\n") && head.contains("Sec-WebSocket-Protocol: a, b\r\n"))
        let (medium, large) = (String(repeating: "m", count: 300), String(repeating: "L", count: 70_000))
        try await peer.send(
            "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n".utf8.map { $0 }
                + RawWebSocket.frame(opcode: 1, Array("hi".utf8), mask: nil)
                + RawWebSocket.frame(opcode: 9, [], mask: nil)
                + RawWebSocket.frame(opcode: 1, Array(medium.utf8), mask: nil)
                + RawWebSocket.frame(opcode: 1, Array(large.utf8), mask: nil)
                + RawWebSocket.frame(opcode: 8, [0x03, 0xE8] + Array("done".utf8), mask: nil)
                + RawWebSocket.frame(opcode: 1, Array("masked".utf8)))
        let client = try await socket
        #expect(await client.handshake.status == 101)
        #expect(try await client.readText() == "hi")
        #expect(try await client.readText() == medium)
        #expect(try await client.readText() == large)
        await #expect(throws: RawHTTPClient.ClientError.closedEarly(received: "close 1000")) {
            try await client.readText()
        }
        await #expect(throws: RawHTTPClient.ClientError.malformed("a server frame was masked")) {
            try await client.readFrame()
        }
        try await client.send(text: "x")
        let sent = try await peer.readExactly(2)
        #expect(sent[0] == 0x81 && sent[1] & 0x80 != 0, "text, final, masked as a client's must be")
    }
}

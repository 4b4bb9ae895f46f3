import Foundation
import HTTPMessages
import StubMutations
import StubServer
import StubTestSupport
import TestTurns
import Testing

/// Every mutant of MockData's live WebSocket, served by its ID over a socket and read frame by frame as a client
/// would have the conversation (open, send a ping, subscribe): the frames its mutated script says, in order, and
/// the close or the dropped connection after them (every mutant under `SWEEP=all`). (In process a WebSocket cannot
/// be answered: URLSession's WebSocket tasks never reach a `URLProtocol`.)
// Ten minutes: under SWEEP=all (CI's sweep step) every case of every sweep starts at once, and each case's clock
// runs while it waits its turn.
@Suite(.takesTurns(.heavy), .timeLimit(.minutes(10)))
struct WebSocketMutantTests {
    /// The live stub's script as mutants see it, and its mutants.
    struct Live {
        let conversation: MutableConversation
        let mutants: [Mutation]
        /// The answers' matcher indices: to `{"type": "ping"}`, then to `{"type": "subscribe"}`.
        let pingReply: Int
        let subscribeReply: Int

        init() throws {
            let catalog = try StubCatalog.load(from: mockData)
            let script = try #require(catalog.stub(named: "live-updates")?.variants["good"]?.script)
            conversation = MutableConversation(script)
            mutants = ConversationMutations.of(conversation)
            let replies = conversation.steps.compactMap { step -> Int? in
                if case .reply(let matcher, _, _) = step { matcher } else { nil }
            }
            try #require(replies.count == 2)
            (pingReply, subscribeReply) = (replies[0], replies[1])
        }
    }

    static let loaded = Result { try Live() }

    /// Which mutants are read back: every one under `SWEEP=all` (CI's sweep step); otherwise the conversation's,
    /// the first and last messages', and every tenth of the rest.
    static var sampled: [String] {
        get throws {
            Sweep.sample(
                try loaded.get().mutants.map(\.id), id: { $0 },
                keeping: ["conversation:", "message[1]:", "message[4]:"],
                every: 10)
        }
    }

    @Test func theLiveSocket_hasAtLeastAHundredMutants() throws {
        let mutants = try Self.loaded.get().mutants
        #expect(mutants.count >= 100)
        #expect(Set(mutants.map(\.id)).count == mutants.count)
    }

    /// What the server sends at one point of the conversation: its frames in order, and whether it ends there.
    static func outputs(_ conversation: MutableConversation, opening: Bool, matcher: Int = -1) -> [WebSocketOutput.Kind]
    {
        var kinds: [WebSocketOutput.Kind] = []
        for step in conversation.steps {
            switch step {
            case .send(let kind, _) where opening: kinds.append(kind)
            case .close(let code, let reason, _) where opening: kinds.append(.close(code: code, reason: reason))
            case .drop where opening: kinds.append(.drop)
            case .reply(let index, let sends, _) where !opening && index == matcher: return sends
            default: break
            }
        }
        return kinds
    }

    @Test(arguments: try sampled)
    func overASocket_eachMutantSendsWhatItSays(_ id: String) async throws {
        let live = try Self.loaded.get()
        let mutant = try #require(live.mutants.first { $0.id == id })
        let mutated = mutant.apply(to: live.conversation)
        // An hour's idle timeout: a quiet socket gets the server's keep-alive pings, which a starved case (under
        // SWEEP=all) would read among the script's frames.
        let configuration = StubServer.Configuration(idleTimeout: .seconds(3_600))
        try await withStubServer(catalog: try await MockData.catalog(), configuration: configuration) { server in
            let socket = try await RawWebSocket(
                port: server.port, path: "/live", protocols: ["catalog.v1"], extraHeaders: "X-Stub-Mutation: \(id)\r\n")
            #expect(await socket.handshake.status == 101)
            let phases: [(send: String?, expected: [WebSocketOutput.Kind])] = [
                (nil, Self.outputs(mutated, opening: true)),
                (#"{"type": "ping"}"#, Self.outputs(mutated, opening: false, matcher: live.pingReply)),
                (#"{"type": "subscribe"}"#, Self.outputs(mutated, opening: false, matcher: live.subscribeReply)),
            ]
            for (send, expected) in phases {
                if let send { try await socket.send(text: send) }
                for kind in expected {
                    if try await !Self.read(kind, from: socket, id) { return }
                }
            }
        }
    }

    /// Reads what `kind` puts on the wire; false once the conversation is over (a close or a drop).
    static func read(_ kind: WebSocketOutput.Kind, from socket: RawWebSocket, _ id: String) async throws -> Bool {
        switch kind {
        case .text(let text):
            let frame = try await socket.readFrame()
            #expect(frame.opcode == 1 && frame.fin && frame.text == text, "\(id): \(frame)")
        case .binary(let bytes):
            let frame = try await socket.readFrame()
            #expect(frame.opcode == 2 && frame.fin && frame.payload == bytes, "\(id): \(frame)")
        case .fragmented(let message, let count):
            var frames: [RawWebSocket.Frame] = []
            for _ in 0..<count { frames.append(try await socket.readFrame()) }
            let (opcode, bytes): (UInt8, [UInt8]) =
                switch message {
                case .text(let text): (1, Array(text.utf8))
                case .binary(let bytes): (2, bytes)
                }
            #expect(frames.map(\.opcode) == [opcode] + Array(repeating: 0, count: count - 1), "\(id)")
            #expect(frames.map(\.fin) == Array(repeating: false, count: count - 1) + [true], "\(id)")
            #expect(frames.flatMap(\.payload) == bytes, "\(id)")
        case .ping:
            let frame = try await socket.readFrame()
            #expect(frame.opcode == 9, "\(id): \(frame)")
        case .close(let code, _):
            let frame = try await socket.readFrame()
            #expect(frame.closeCode == code, "\(id): \(frame)")
            return false
        case .drop:
            await #expect(throws: RawHTTPClient.ClientError.self, "\(id): the connection ends without a close frame") {
                _ = try await socket.readFrame()
            }
            return false
        }
        return true
    }
}

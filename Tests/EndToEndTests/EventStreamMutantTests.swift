import Foundation
import HTTPMessages
import StubMutations
import StubServer
import StubServerInProcess
import StubTestSupport
import TestTurns
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every mutant of MockData's chat stream, served by its ID over both transports: the bytes its description says,
/// ending as it says (cleanly, reset, or left open), or the plain answer instead (every mutant under `SWEEP=all`).
/// The stream is MockData's with its pauses left out (the same events, so the same mutants), so that each case
/// takes milliseconds.
// Ten minutes: under SWEEP=all (CI's sweep step) every case of every sweep starts at once, and each case's clock
// runs while it waits its turn.
@Suite(.takesTurns(.heavy), .timeLimit(.minutes(10)))
struct EventStreamMutantTests {
    /// MockData's chat stub over its events without pauses, in a folder of its own: its catalog, the stream and
    /// its mutants.
    struct Chat {
        let fixtures: TemporaryFixtures
        let catalog: StubCatalog
        let stream: MutableEventStream
        let mutants: [Mutation]

        init() throws {
            let file = try String(contentsOf: mockData.appendingPathComponent("chat/chat.good.sse"), encoding: .utf8)
            let unpaused = file.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !$0.hasPrefix(": delay=") }.joined(separator: "\n")
            fixtures = try TemporaryFixtures([
                "chat/stubs.json": #"""
                {"stubs": [{"name": "chat-completion", "request": {"method": "POST", "path": "/v1/chat/completions"},
                  "variants": {"good": {"eventsFile": "chat.good.sse"},
                    "bad": {"generated": true, "events": [{"data": "{"}]}, "nil": {"generated": true, "body": ""}}}]}
                """#,
                "chat/chat.good.sse": unpaused,
            ])
            catalog = try StubCatalog.load(from: fixtures.root)
            let events = try #require(catalog.stubs.first?.variants["good"]?.events?.events)
            stream = MutableEventStream(events, status: 200, headers: HTTPHeaders())
            mutants = EventStreamMutations.of(stream)
        }
    }

    static let loaded = Result { try Chat() }
    static var chat: Chat { get throws { try loaded.get() } }

    /// Which mutants are read back: every one under `SWEEP=all` (CI's sweep step); otherwise the answers, the
    /// stream's, the first and last events', and every twentieth of the rest.
    static var sampled: [String] {
        get throws {
            Sweep.sample(
                try chat.mutants.map(\.id), id: { $0 },
                keeping: ["status:", "body:", "events:", "event[1]:", "event[16]:"], every: 20)
        }
    }

    /// What a mutant should send: a plain answer's status, or the stream's bytes before any pause past a client's
    /// timeout and how it ends there (a pause past the timeout is, for the client, a hang).
    enum Expected {
        case answer(status: Int)
        case stream([UInt8], StreamEnd)

        init(_ mutant: Mutation, of stream: MutableEventStream) {
            switch mutant.apply(to: stream) {
            case .answer(let answer):
                self = .answer(status: answer.status)
            case .stream(_, _, let blocks, let ending):
                var bytes: [UInt8] = []
                for piece in blocks.flatMap(\.pieces) {
                    if piece.pauseMs >= 60_000 {
                        self = .stream(bytes, .hang)
                        return
                    }
                    bytes += piece.bytes
                }
                self = .stream(bytes, ending)
            }
        }

        /// A stream's pause past a client's timeout, if it has one: its length and every byte of the stream.
        static func longPause(_ mutant: Mutation, of stream: MutableEventStream) -> (ms: Int, all: [UInt8])? {
            guard case .stream(_, _, let blocks, _) = mutant.apply(to: stream) else { return nil }
            let pieces = blocks.flatMap(\.pieces)
            guard let pause = pieces.map(\.pauseMs).first(where: { $0 >= 60_000 }) else { return nil }
            return (pause, pieces.flatMap(\.bytes))
        }
    }

    @Test func theChatStream_hasAtLeastAHundredMutants_asMockDataListsThem() throws {
        let mockData = try StubCatalog.load(from: mockData)
        let mutants = try Self.chat.mutants
        #expect(mutants.count >= 100)
        #expect(mockData.stub(named: "chat-completion")?.variants["good"]?.mutants.map(\.id) == mutants.map(\.id))
        #expect(Set(mutants.map(\.id)).count == mutants.count, "IDs are unique")
    }

    @Test(arguments: try sampled)
    func overASocket_eachMutantSendsWhatItSays(_ id: String) async throws {
        let chat = try Self.chat
        let mutant = try #require(chat.mutants.first { $0.id == id })
        let server = try StubServer.start(catalog: chat.catalog)
        let client = try await RawHTTPClient(port: server.port)
        let sent = ContinuousClock.now
        try await client.send(
            "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Stub-Mutation: \(id)\r\n"
                + "Content-Length: 2\r\n\r\n{}")
        switch Expected(mutant, of: chat.stream) {
        case .answer(let status):
            #expect(try await client.readResponse().status == status)
            await server.stop()
        case .stream(let bytes, let ending):
            let head = try await client.readResponse(head: true)
            #expect(head.status == 200 && head.header("Transfer-Encoding") == "chunked")
            let (body, end) = try await Self.readChunked(
                client, expecting: bytes.count, thenStop: ending == .hang ? server : nil)
            if body.count > bytes.count, let pause = Expected.longPause(mutant, of: chat.stream),
                ContinuousClock.now - sent >= .milliseconds(pause.ms)
            {
                // This case waited its turn past the pause (a loaded runner): the client then reads on past it,
                // and what it reads must be the rest as written, never sooner than the pause allows.
                #expect(Array(pause.all.prefix(body.count)) == body, "\(id)")
            } else {
                #expect(body == bytes, "\(id)")
                #expect(end == ending, "\(id)")
            }
            await server.stop()
        }
    }

    @Test(arguments: try sampled)
    func inProcess_eachMutantSendsWhatItSays(_ id: String) async throws {
        let chat = try Self.chat
        let mutant = try #require(chat.mutants.first { $0.id == id })
        let stubs = InProcessStubs.start(catalog: chat.catalog)
        defer { Task { await stubs.stop() } }
        let expected = Expected(mutant, of: chat.stream)
        var request = URLRequest(url: URL(string: "https://chat.catalog.test/v1/chat/completions")!)
        (request.httpMethod, request.httpBody) = ("POST", Data("{}".utf8))
        request.setValue(id, forHTTPHeaderField: "X-Stub-Mutation")
        // A stream left open can only end by the client's timeout: 2 s, far less than a hang; else a minute.
        if case .stream(_, .hang) = expected { request.timeoutInterval = 2 } else { request.timeoutInterval = 60 }
        let result: Result<(Data, URLResponse), URLError>
        do {
            result = .success(try await stubs.urlSession.data(for: request))
        } catch let error as URLError {
            result = .failure(error)
        }
        switch (expected, result) {
        case (.answer(let status), .success(let (_, response))):
            #expect((response as? HTTPURLResponse)?.statusCode == status)
        case (.stream(let bytes, .complete), .success(let (data, _))):
            #expect([UInt8](data) == bytes, "\(id)")
        case (.stream(_, .reset), .failure(let error)), (.stream(_, .drop), .failure(let error)):
            #expect(error.code == .networkConnectionLost, "\(id)")
        case (.stream(_, .hang), .failure(let error)):
            #expect(error.code == .timedOut, "\(id)")
        default:
            Issue.record("\(id): expected \(expected), got \(result)")
        }
    }

    /// Reads a chunked body: its bytes, and how it ended: the last chunk (`complete`), a reset, a close without
    /// the last chunk (`drop`); or, given a server to stop, once `count` bytes are in, the server stopped and a close
    /// that follows is a `hang` (a server that had ended the stream would have sent its last chunk with the last
    /// piece, before the stop).
    static func readChunked(
        _ client: RawHTTPClient, expecting count: Int, thenStop server: StubServer?
    ) async throws -> ([UInt8], StreamEnd) {
        var body: [UInt8] = []
        var stopped = false
        while true {
            if let server, body.count >= count, !stopped {
                stopped = true
                await server.stop()
            }
            var line: [UInt8] = []
            do {
                while !line.hasSuffix([0x0D, 0x0A]) { line += try await client.readExactly(1) }
            } catch RawHTTPClient.ClientError.readFailed(ECONNRESET) {
                return (body, .reset)
            } catch RawHTTPClient.ClientError.closedEarly {
                return (body, stopped ? .hang : .drop)
            }
            guard let size = Int(String(decoding: line.dropLast(2), as: UTF8.self), radix: 16) else {
                Issue.record("not a chunk size: \(line)")
                return (body, .drop)
            }
            if size == 0 { return (body, .complete) }
            do {
                body += try await client.readExactly(size)
                _ = try await client.readExactly(2)
            } catch RawHTTPClient.ClientError.readFailed(ECONNRESET) {
                return (body, .reset)
            }
        }
    }
}

extension Array where Element == UInt8 {
    fileprivate func hasSuffix(_ suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}

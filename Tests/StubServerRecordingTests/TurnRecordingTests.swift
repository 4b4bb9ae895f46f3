import Foundation
import StubCore
import StubServer
import StubServerRecording
import StubTestSupport
import TestTurns
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Recording a model API and checking it for drift, against a stand-in that speaks the real formats (a server of
/// MockData's assistant stubs): these machines reach no provider.
@Suite(.takesTurns(.heavy), .timeLimit(.minutes(1)))
struct TurnRecordingTests {
    static let body = #"{"model": "catalog-assistant-1", "stream": true}"#

    static func post(_ url: URL, headers: [String: String] = [:]) async throws -> (Data, Int) {
        var request = URLRequest(url: url, timeoutInterval: 30)
        request.httpMethod = "POST"
        request.httpBody = Data(body.utf8)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(for: request)
        return (data, (response as? HTTPURLResponse)?.statusCode ?? 0)
    }

    static func read(_ data: Data, _ format: TurnFormat, streamed: Bool) throws -> AssistantTurn {
        streamed
            ? try TurnReader.read(EventStreamFile.parse([UInt8](data)), as: format)
            : try TurnReader.read(whole: [UInt8](data), as: format)
    }

    /// A provider's answer is recorded as a turn file and a variant that renders it in its format (the key
    /// redacted), and the recording replays as the same turn.
    @Test(arguments: [
        ("/v1/chat/completions", TurnFormat.openAIChat, true),
        ("/v1/messages", .anthropic, true),
        ("/v1/responses", .openAIResponses, true),
        ("/v1beta/models/catalog-assistant-1:streamGenerateContent?alt=sse", .gemini, true),
        ("/v1beta/models/catalog-assistant-1:generateContent", .gemini, false),
    ])
    func aProvidersAnswer_isRecordedAsATurn_thatReplaysTheSame(_ target: String, _ format: TurnFormat, _ streamed: Bool)
        async throws
    {
        let folder = try TemporaryFixtures()
        defer { folder.remove() }
        let upstream = try StubServer.start(catalog: try await MockData.catalog())
        let recorder = try StubServer.start(
            fixtures: folder.root, recording: .missing(upstream: upstream.baseURL), api: "provider", environment: [:])
        let (recorded, status) = try await Self.post(
            URL(string: recorder.baseURL.absoluteString + target)!, headers: ["Authorization": "Bearer s3cret-key"])
        #expect(status == 200)
        await recorder.stop()
        await upstream.stop()
        let turn = try Self.read(recorded, format, streamed: streamed)

        let stubs = try String(contentsOf: folder.url("provider/stubs.json"), encoding: .utf8)
        #expect(stubs.contains(#""format" : "\#(format.rawValue)""#), "\(stubs)")
        #expect(!stubs.contains("s3cret"))
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.url("provider").path)
        #expect(files.contains { $0.hasSuffix(".turn.json") }, "\(files)")
        let replaying = try StubServer.start(catalog: StubCatalog.load(from: folder.root))
        let (replayed, again) = try await Self.post(URL(string: replaying.baseURL.absoluteString + target)!)
        await replaying.stop()
        #expect(again == 200)
        let replayedTurn = try Self.read(replayed, format, streamed: streamed)
        // The same turn; its pauses are as measured, so they are compared by count only.
        #expect(replayedTurn.wholeText == turn.wholeText && replayedTurn.text.count == turn.text.count)
        #expect(replayedTurn.toolCalls.map(\.argumentsText) == turn.toolCalls.map(\.argumentsText))
        #expect(replayedTurn.toolCalls.map(\.name) == ["find_recipe"])
        #expect(replayedTurn.finish == turn.finish && replayedTurn.usage == turn.usage)
    }

    /// The drift check replays a model API stub (its `replay` body) and says where the real stream no longer
    /// follows the grammar its fixture renders; one that still does shows no difference.
    @Test(
        arguments: [
            (nil, nil),
            ("call[1]:never-stopped", "event 16 (message_delta): a block never stopped"),
            ("events:new-kind", "event 2 (future_event): future_event is not an event of anthropic"),
            ("finish:missing", "event 17 (message_stop): message_stop before message_delta"),
        ] as [(String?, String?)])
    func aStreamThatLeavesItsGrammar_isDrift(_ mutation: String?, _ problem: String?) async throws {
        let turn = try String(
            contentsOf: try #require(MockData.folder).appendingPathComponent("assistant/turn.json"), encoding: .utf8)
        let fixtures = try TemporaryFixtures([
            "api/turn.json": turn,
            "api/stubs.json": #"""
            {"stubs": [{"name": "anthropic-stream", "request": {"method": "POST", "path": "/v1/messages"},
              "replay": {"path": "/v1/messages", "body": {"model": "catalog-assistant-1", "stream": true}},
              "variants": {"good": {"turn": {"file": "turn.json", "format": "anthropic", "stream": true}},
                           "bad": {"body": "{"}, "nil": {"body": ""}}}]}
            """#,
        ])
        defer { fixtures.remove() }
        let upstream = try StubServer.start(catalog: try await MockData.catalog())
        if let mutation { try upstream.setMutation(mutation, forStub: "anthropic-stream") }
        let report = await DriftChecker(upstream: upstream.baseURL, timeout: .seconds(15)).check(
            try StubCatalog.load(from: fixtures.root))
        await upstream.stop()
        #expect(report.checked == ["anthropic-stream"])
        let expected = problem.map {
            ["api/stubs.json: anthropic-stream: turn: the answer no longer follows anthropic: \($0)"]
        }
        #expect(report.differences.map(\.description) == expected ?? [])
        #expect(report.fails(strict: false) == (problem != nil))
    }
}

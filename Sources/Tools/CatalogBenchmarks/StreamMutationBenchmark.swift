import Foundation
import HTTPMessages
import StubCore
import StubMutations
import StubServerInProcess

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The stream sweep's costs on MockData's chat stream (16 events): listing its mutants, and reading each mutant's
/// stream in process, a fresh server per case as `StubMutant.withStubs` starts one.
enum StreamMutationBenchmark {
    /// The chat stub over its events without their pauses (the same mutants), in a temporary folder.
    static func unpausedChat() throws -> StubCatalog {
        let events = try String(
            contentsOf: MutationBenchmark.mockData().appendingPathComponent("chat/chat.good.sse"), encoding: .utf8)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chat-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("chat"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try events.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix(": delay=") }
            .joined(separator: "\n").write(
                to: folder.appendingPathComponent("chat/chat.good.sse"), atomically: true, encoding: .utf8)
        try #"""
        {"stubs": [{"name": "chat-completion", "request": {"method": "POST", "path": "/v1/chat/completions"},
          "variants": {"good": {"eventsFile": "chat.good.sse"},
            "bad": {"generated": true, "events": [{"data": "{"}]}, "nil": {"generated": true, "body": ""}}}]}
        """#.write(to: folder.appendingPathComponent("chat/stubs.json"), atomically: true, encoding: .utf8)
        return try StubCatalog.load(from: folder)
    }

    /// Every mutant of the chat stream listed from its events: what each request for one of them costs (they are
    /// listed again for each, not cached).
    static func list() async throws -> BenchmarkResult {
        let catalog = try StubCatalog.load(from: MutationBenchmark.mockData())
        let events = catalog.stub(named: "chat-completion")?.variants["good"]?.events?.events ?? []
        let stream = MutableEventStream(events, status: 200, headers: HTTPHeaders())
        var count = 0
        var result = await BenchmarkResult.measure(iterations: 50, unit: "listing") {
            count = EventStreamMutations.listed(fromScratch: stream).count
        }
        result.unit = "listing of \(count) mutants, \(MutationBenchmark.perSecond(count, result)) mutants/s"
        return result
    }

    /// Each mutant's stream read by URLSession in process (all but those that hang or pause past a timeout), each
    /// case with a fresh server.
    static func sweep() async throws -> BenchmarkResult {
        let catalog = try unpausedChat()
        let ids = try catalog.existingVariant("good", ofStub: "chat-completion").mutants.map(\.id)
            .filter { !$0.hasSuffix(":then-hang") && $0 != "events:idle-pause" }
        var request = URLRequest(url: URL(string: "https://chat.catalog.test/v1/chat/completions")!)
        (request.httpMethod, request.httpBody, request.timeoutInterval) = ("POST", Data("{}".utf8), 5)
        var result = try await BenchmarkResult.measure(iterations: 5, warmup: 1, unit: "sweep") {
            for id in ids {
                let stubs = InProcessStubs.start(catalog: catalog)
                try stubs.setMutation(id, forStub: "chat-completion")
                let session = URLSession(configuration: stubs.sessionConfiguration)
                _ = try? await session.data(for: request)
                session.invalidateAndCancel()
                await stubs.stop()
            }
        }
        result.unit = "sweep of \(ids.count) cases, \(MutationBenchmark.perSecond(ids.count, result)) cases/s"
        return result
    }
}

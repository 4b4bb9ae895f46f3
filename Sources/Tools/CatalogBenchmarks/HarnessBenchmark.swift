import Foundation
import StubCore
import StubServer
import StubServerInProcess

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the sweep harness itself costs per case, with a client that does nothing but read the answer's bytes (so no
/// app decoding is in it): over MockData's albums feed mutants, each case as `StubMutant` runs one (a fresh server
/// of the catalog, the mutant chosen, one request, the server stopped), timed per case, with the parts apart.
enum HarnessBenchmark {
    /// The feed's first 200 mutants but the late and hanging ones.
    static func cases() throws -> (StubCatalog, [String]) {
        let catalog = try StubCatalog.load(from: MutationBenchmark.mockData())
        let ids = try catalog.existingVariant("good", ofStub: "top-albums").mutants.map(\.id)
            .filter { !$0.hasPrefix("fault:hang") && !$0.hasPrefix("delay:") && !$0.hasPrefix("fault:slow") }
        return (catalog, Array(ids.prefix(200)))
    }

    static let albums = URL(
        string: "https://rss.applemarketingtools.com/api/v1/us/apple-music/top-albums/all/100/explicit.json")!

    /// In process: `InProcessStubs.start(catalog:)`, `setMutation`, one request through its `urlSession`, `stop()`.
    static func inProcess() async throws -> BenchmarkResult {
        let (catalog, ids) = try cases()
        return try await measure(ids, rounds: 3) { id, parts in
            let start = ContinuousClock.now
            let stubs = InProcessStubs.start(catalog: catalog)
            try stubs.setMutation(id, forStub: "top-albums")
            let started = ContinuousClock.now
            var request = URLRequest(url: albums)
            request.timeoutInterval = 2
            _ = try? await stubs.urlSession.data(for: request)
            let answered = ContinuousClock.now
            await stubs.stop()
            parts.add(start: started - start, request: answered - started, stop: ContinuousClock.now - answered)
        }
    }

    /// Over a socket: `StubServer.start(catalog:)`, `setMutation`, one request from one shared session, `stop()`.
    static func socket() async throws -> BenchmarkResult {
        let (catalog, ids) = try cases()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        let session = URLSession(configuration: configuration)
        defer { session.invalidateAndCancel() }
        return try await measure(ids, rounds: 3) { id, parts in
            let start = ContinuousClock.now
            let server = try StubServer.start(catalog: catalog)
            try server.setMutation(id, forStub: "top-albums")
            let started = ContinuousClock.now
            var request = URLRequest(url: server.baseURL.appendingPathComponent(albums.path))
            request.timeoutInterval = 2
            _ = try? await session.data(for: request)
            let answered = ContinuousClock.now
            await server.stop()
            parts.add(start: started - start, request: answered - started, stop: ContinuousClock.now - answered)
        }
    }

    /// The time of each part of a case, summed over the cases.
    struct Parts {
        var start = Duration.zero, request = Duration.zero, stop = Duration.zero

        mutating func add(start: Duration, request: Duration, stop: Duration) {
            (self.start, self.request, self.stop) = (self.start + start, self.request + request, self.stop + stop)
        }
    }

    /// Runs every case `rounds` times after one untimed round; the result's samples are the cases' times.
    static func measure(
        _ ids: [String], rounds: Int, _ run: (String, inout Parts) async throws -> Void
    ) async throws -> BenchmarkResult {
        var parts = Parts()
        for id in ids { try await run(id, &parts) }
        parts = Parts()
        var samples: [Duration] = []
        for _ in 0..<rounds {
            for id in ids {
                let start = ContinuousClock.now
                try await run(id, &parts)
                samples.append(ContinuousClock.now - start)
            }
        }
        let count = Double(samples.count)
        let ms = { (total: Duration) in BenchmarkResult.milliseconds(total / count) }
        return BenchmarkResult(
            samples: samples,
            unit:
                "case (\(ids.count) mutants x \(rounds); mean start+choose \(ms(parts.start)), request "
                + "\(ms(parts.request)), stop \(ms(parts.stop)))")
    }
}

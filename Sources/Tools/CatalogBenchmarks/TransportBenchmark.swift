import Foundation
import StubServer
import StubServerInProcess

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One small fixture fetched by the same `URLSession` client through the in-process transport and over loopback
/// from the socket server: requests one after another, alternating between the two in rounds so both meet the same
/// machine, timed per request.
enum TransportBenchmark {
    /// A 200-byte JSON answer at `https://api.example.com/item`.
    static func fixtures() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("transport-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("api"), withIntermediateDirectories: true)
        let body = #"{\"id\":1,\"name\":\"\#(String(repeating: "x", count: 182))\"}"#
        let stubs = #"""
            {"hosts": ["api.example.com"], "stubs": [{"name": "item", "request": {"path": "/item"}, "variants": {
              "good": {"headers": {"Content-Type": "application/json"}, "body": "\#(body)"},
              "bad": {"body": "{"}, "nil": {"body": ""}}}]}
            """#
        try Data(stubs.utf8).write(to: root.appendingPathComponent("api/stubs.json"))
        return root
    }

    static func compare() async throws -> BenchmarkResult {
        let root = try fixtures()
        defer { try? FileManager.default.removeItem(at: root) }
        let inProcess = try InProcessStubs.start(fixtures: root)
        let server = try StubServer.start(fixtures: root)
        let loopbackConfiguration = URLSessionConfiguration.ephemeral
        loopbackConfiguration.urlCache = nil
        let sessions = [
            (URLSession(configuration: inProcess.sessionConfiguration), URL(string: "https://api.example.com/item")!),
            (URLSession(configuration: loopbackConfiguration), server.baseURL.appendingPathComponent("item")),
        ]
        let clock = ContinuousClock()
        var samples: [[Duration]] = [[], []]
        let rounds = ProcessInfo.processInfo.environment["BENCH_ITERATIONS"].flatMap { Int($0) } ?? 20
        for round in 0..<(rounds + 2) {
            for (index, (session, url)) in sessions.enumerated() {
                for _ in 0..<100 {
                    let elapsed = try await clock.measure {
                        let (data, _) = try await session.data(from: url)
                        precondition(data.count == 200)
                    }
                    if round >= 2 { samples[index].append(elapsed) }
                }
            }
        }
        await inProcess.stop()
        await server.stop()
        let (local, loopback) = (
            BenchmarkResult(samples: samples[0], unit: ""), BenchmarkResult(samples: samples[1], unit: "")
        )
        let perSecond = { (result: BenchmarkResult) in
            Int((Double(result.samples.count) / result.samples.reduce(Duration.zero, +).seconds).rounded())
        }
        return BenchmarkResult(
            samples: samples[0],
            unit:
                "request in process (\(perSecond(local)) req/s); over loopback median "
                + "\(BenchmarkResult.milliseconds(loopback.percentile(0.5))) (\(perSecond(loopback)) req/s); "
                + String(
                    format: "in process takes %.2fx the loopback time", local.percentile(0.5) / loopback.percentile(0.5)
                ))
    }
}

extension Duration {
    fileprivate var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

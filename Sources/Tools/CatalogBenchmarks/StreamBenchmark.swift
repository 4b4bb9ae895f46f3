import Foundation
import Locking
import StubServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// MockData's chat stream read by URLSession's delegate from the socket server, timed from the request: when the
/// first event arrives and when the stream ends, each against the time its events file scripts.
enum StreamBenchmark {
    /// The scripted time of the first event and of the whole stream, from `MockData/chat/chat.good.sse`.
    static func scripted(_ mockData: URL) throws -> (first: Double, total: Double) {
        let text = try String(contentsOf: mockData.appendingPathComponent("chat/chat.good.sse"), encoding: .utf8)
        let delays = text.split(separator: "\n").compactMap { line in
            line.hasPrefix(": delay=") ? Double(line.dropFirst(8)) : nil
        }
        return ((delays.first ?? 0) / 1000, delays.reduce(0, +) / 1000)
    }

    static func chat() async throws -> BenchmarkResult {
        guard let mockData = StubCatalog.findFolder() else { throw CocoaError(.fileNoSuchFile) }
        let script = try scripted(mockData)
        let server = try StubServer.start(fixtures: mockData)
        defer { Task { await server.stop() } }
        var request = URLRequest(url: server.baseURL.appendingPathComponent("v1/chat/completions"))
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"stream":true}"#.utf8)
        let runs = ProcessInfo.processInfo.environment["BENCH_ITERATIONS"].flatMap { Int($0) } ?? 10
        var firsts: [Duration] = []
        var totals: [Duration] = []
        for run in 0..<(runs + 1) {
            let reader = Timings()
            let session = URLSession(configuration: .ephemeral, delegate: reader, delegateQueue: nil)
            let started = ContinuousClock.now
            reader.state.withLock { $0.started = started }
            session.dataTask(with: request).resume()
            while !reader.state.withLock({ $0.ended != nil }) { try await Task.sleep(for: .milliseconds(5)) }
            session.invalidateAndCancel()
            let (first, ended) = reader.state.withLock { ($0.firstEvent, $0.ended) }
            guard run > 0, let first, let ended else { continue }  // the first run warms up
            firsts.append(first - started)
            totals.append(ended - started)
        }
        let first = BenchmarkResult(samples: firsts, unit: "")
        let total = BenchmarkResult(samples: totals, unit: "")
        let seconds = { (duration: Duration) in
            Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        }
        return BenchmarkResult(
            samples: totals,
            unit: String(
                format:
                    "stream of %.0f ms scripted (%.1f%% over); first event median %@ against %.0f ms scripted "
                    + "(+%.1f ms)",
                script.total * 1000, (seconds(total.percentile(0.5)) / script.total - 1) * 100,
                BenchmarkResult.milliseconds(first.percentile(0.5)), script.first * 1000,
                (seconds(first.percentile(0.5)) - script.first) * 1000))
    }

    /// When the first body bytes and the end of one task came.
    final class Timings: NSObject, URLSessionDataDelegate, Sendable {
        struct State {
            var started = ContinuousClock.now
            var firstEvent: ContinuousClock.Instant?
            var ended: ContinuousClock.Instant?
        }
        let state = Lock(State())

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            let now = ContinuousClock.now
            state.withLock { if $0.firstEvent == nil { $0.firstEvent = now } }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            let now = ContinuousClock.now
            state.withLock { $0.ended = now }
        }
    }
}

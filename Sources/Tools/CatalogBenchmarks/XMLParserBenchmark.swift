import Foundation
import TopSongsFeature
import XMLPath

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `XMLPathParser` reading the top-songs feed against a bare `XMLParser` pass that does nothing, on a feed of
/// 1,000 entries made from the fixture's 27.
enum XMLParserBenchmark {
    static func feed() throws -> Data {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("MockData/top-songs/topsongs.good.xml")
        let text = try String(contentsOf: fixture, encoding: .utf8)
        guard let first = text.range(of: "<entry>"), let last = text.range(of: "</entry>", options: .backwards) else {
            throw CocoaError(.fileReadCorruptFile)
        }
        let entries = text[first.lowerBound..<last.upperBound]
        let copies = String(repeating: String(entries), count: 1000 / 27 + 1)
        return Data((text[..<first.lowerBound] + copies + text[last.upperBound...]).utf8)
    }

    /// Parses with a delegate that does nothing: the floor any `XMLParser`-based reader stands on.
    final class NothingDelegate: NSObject, XMLParserDelegate {}

    static func bare() async throws -> BenchmarkResult {
        let data = try feed()
        return await BenchmarkResult.measure(iterations: 15, unit: "pass over \(data.count / 1024) KB") {
            let parser = XMLParser(data: data)
            let delegate = NothingDelegate()
            parser.delegate = delegate
            precondition(parser.parse())
        }
    }

    /// The parser with the feed's 9 registrations, delivering every event to a handler that counts them.
    static func pathParser() async throws -> BenchmarkResult {
        let data = try feed()
        return try await BenchmarkResult.measure(iterations: 15, unit: "pass over \(data.count / 1024) KB") {
            var events = 0
            try TopSongsFeed.parser.parse(data) { _ in events += 1 }
            precondition(events > 10_000)
        }
    }

    /// Both passes interleaved, one of each per round, so that drift in the machine's speed hits both alike.
    /// - Returns: the path parser's timings; the line also gives the bare pass's median and the throughput ratio.
    static func compare() async throws -> BenchmarkResult {
        let data = try feed()
        let clock = ContinuousClock()
        var bareSamples: [Duration] = []
        var pathSamples: [Duration] = []
        let rounds = ProcessInfo.processInfo.environment["BENCH_ITERATIONS"].flatMap { Int($0) } ?? 40
        for round in 0..<(rounds + 3) {
            let bare = clock.measure {
                let parser = XMLParser(data: data)
                let delegate = NothingDelegate()
                parser.delegate = delegate
                precondition(parser.parse())
            }
            var events = 0
            let path = try clock.measure { try TopSongsFeed.parser.parse(data) { _ in events += 1 } }
            if round >= 3 {
                bareSamples.append(bare)
                pathSamples.append(path)
            }
        }
        let bare = BenchmarkResult(samples: bareSamples, unit: "")
        let ratio = bare.percentile(0.5) / BenchmarkResult(samples: pathSamples, unit: "").percentile(0.5)
        return BenchmarkResult(
            samples: pathSamples,
            unit:
                "pass over \(data.count / 1024) KB; bare XMLParser median \(BenchmarkResult.milliseconds(bare.percentile(0.5))); "
                + "throughput \(String(format: "%.2f", ratio))x the bare pass")
    }

    /// The whole feature read: parse, records, songs with URLs and prices.
    static func songs() async throws -> BenchmarkResult {
        let data = try feed()
        return try await BenchmarkResult.measure(iterations: 15, unit: "feed of \(data.count / 1024) KB") {
            let songs = try TopSongsFeed.songs(from: data)
            precondition(songs.count > 1000)
        }
    }
}

import Foundation

/// Timings of one benchmark's iterations, summarised by median and spread.
struct BenchmarkResult {
    var samples: [Duration]
    /// What one iteration did, such as "1000 movies".
    var unit: String

    /// Times `iterations` runs of `body` after `warmup` untimed ones.
    static func measure(
        iterations: Int, warmup: Int = 3, unit: String, isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> Void
    ) async rethrows -> BenchmarkResult {
        for _ in 0..<warmup { try await body() }
        let clock = ContinuousClock()
        var samples: [Duration] = []
        for _ in 0..<iterations {
            samples.append(try await clock.measure { try await body() })
        }
        return BenchmarkResult(samples: samples, unit: unit)
    }

    func percentile(_ p: Double) -> Duration {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return .zero }
        return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * p + 0.5))]
    }

    static func milliseconds(_ duration: Duration) -> String {
        String(
            format: "%.3f ms",
            Double(duration.components.attoseconds) / 1e15 + Double(duration.components.seconds) * 1000)
    }

    func line(_ name: String) -> String {
        let ms = Self.milliseconds
        return
            "\(name): median \(ms(percentile(0.5))) (p10 \(ms(percentile(0.1))), p90 \(ms(percentile(0.9))), \(samples.count) runs) per \(unit)"
    }
}

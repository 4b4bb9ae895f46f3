/// Trouble drawn at random per request: a fault at some rate and a delay from a range.
///
/// Draws come from the server's generator, seeded by `StubServer.Configuration.seed`, so the same seed gives the
/// same outcomes for the same sequence of requests.
package struct RandomFaults: Sendable, Equatable {
    /// The chance, 0...1, that a request gets one of `kinds` instead of its answer.
    package var rate: Double
    /// The faults to pick from, each equally likely.
    package var kinds: [StubVariant.Fault]
    /// A delay in milliseconds drawn uniformly from this range for every request; nil for none.
    package var delayMs: ClosedRange<Int>?

    package init(rate: Double, kinds: [StubVariant.Fault], delayMs: ClosedRange<Int>? = nil) {
        self.rate = rate
        self.kinds = kinds
        self.delayMs = delayMs
    }

    /// The faults a server-wide chaos rate picks from: each ends the exchange, none holds a connection open.
    package static let chaosKinds: [StubVariant.Fault] = [.drop, .reset, .truncate, .malformed]
}

/// A small, fast generator that repeats its sequence for a seed (SplitMix64), so a failing run can be replayed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    package init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A number in `0..<1`.
    mutating func unit() -> Double {
        Double(next() >> 11) / Double(1 << 53)
    }
}

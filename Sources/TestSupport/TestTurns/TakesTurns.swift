package import Testing

/// The trait every suite carries: its tests take turns with every other suite's, at most `Slots.tests`' count at
/// once, and a test's time limit starts when its turn does. A heavy suite (seconds of CPU, hundreds of requests,
/// servers, child processes) carries `.takesTurns(.heavy)`: at most `Slots.heavyTests`' count of its kind at once.
///
/// Swift Testing starts every test at once and runs each case's `.timeLimit` from the case's start. On one core the
/// suite's ~900 tests share ~200 s of CPU, and a runnable task waits behind every other one each time it resumes:
/// a test of a few dozen awaits, started among them all, ended with the first 40 s of the run however little it
/// did, and the ones with the most awaits passed their minute (1 pinned run in 2 failed one, measured). Taking turns
/// keeps 8 tests per core on the machine at once: each runs its own course in a fraction of the run. The turn is
/// waited for around the test as a whole, before any of its cases starts (swift-testing's Runner applies a test's
/// own scope outside its cases' time limits), without holding a thread. `.ci/check-waits.py` fails on a suite
/// without it.
package struct TakesTurns: TestTrait, SuiteTrait, TestScoping {
    /// How much of the machine a suite's tests take.
    package enum Weight: Sendable {
        /// One of `Slots.tests`.
        case light
        /// One of `Slots.heavyTests`, then one of `Slots.tests`.
        case heavy
    }

    package var weight: Weight

    package var isRecursive: Bool { true }

    /// Whether the running test already holds its turn (a nested suite's trait does not take a second one).
    @TaskLocal private static var isTakingTurn = false

    /// The test as a whole; not a suite (its tests take their own turns) and not each case (their clocks run). A
    /// test that a heavy trait reaches takes the heavy turn alone.
    package func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        guard testCase == nil, !test.isSuite else { return nil }
        if weight == .light, test.traits.contains(where: { ($0 as? Self)?.weight == .heavy }) { return nil }
        return self
    }

    /// Waits for the turn, heavy slot before light one (always in that order: no two tests wait on each other).
    package func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        if Self.isTakingTurn { return try await function() }
        try await Self.$isTakingTurn.withValue(true) {
            switch weight {
            case .light:
                try await Slots.holding(.tests) { try await function() }
            case .heavy:
                try await Slots.holding(.heavyTests) { try await Slots.holding(.tests) { try await function() } }
            }
        }
    }
}

extension Trait where Self == TakesTurns {
    /// The suite's tests take turns with every other suite's (see `TakesTurns`).
    package static var takesTurns: Self { TakesTurns(weight: .light) }

    /// The suite's tests take turns of `weight` (see `TakesTurns`).
    package static func takesTurns(_ weight: TakesTurns.Weight) -> Self { TakesTurns(weight: weight) }
}

package import Testing

/// A trait for the heavy suites (seconds of CPU, hundreds of requests, servers, child processes): their tests take
/// turns, at most `Slots.heavyTests`' count at once, and a test's time limit starts when its turn does.
///
/// Swift Testing starts every test at once and runs each case's `.timeLimit` from the case's start. On one core the
/// suite's ~800 tests share ~55 s of CPU, so a test that needs one second of it, started among them all, ended with
/// the whole run (58 s of its minute, measured), and a busier machine failed it. Taking turns keeps the heavy tests
/// from sharing the core all at once: each runs its own course in a fraction of the run. The turn is waited for
/// around the test as a whole, before any of its cases starts (swift-testing's Runner applies a test's own scope
/// outside its cases' time limits), without holding a thread.
package struct TakesTurns: TestTrait, SuiteTrait, TestScoping {
    package var isRecursive: Bool { true }

    /// The test as a whole; not a suite (its tests take their own turns) and not each case (their clocks run).
    package func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil && !test.isSuite ? self : nil
    }

    package func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await Slots.holding(.heavyTests) { try await function() }
    }
}

extension Trait where Self == TakesTurns {
    /// The suite's tests take turns with the other heavy suites' (see `TakesTurns`).
    package static var takesTurns: Self { TakesTurns() }
}

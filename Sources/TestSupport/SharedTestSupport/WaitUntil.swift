/// A wait that ended before its condition held.
public struct WaitTimedOut: Error, CustomStringConvertible {
    public var what: String
    public var limit: Duration

    public var description: String { "gave up waiting after \(limit) for \(what)" }
}

/// Waits until `condition` holds, checking it in the caller's isolation: at once, then after `interval` (a
/// millisecond by default), the pause doubling up to 16 times `interval`, so a long wait costs few wake-ups; a
/// condition that costs a round trip (a browser, a process) should be checked less often.
///
/// Every wait in a test is bounded: a broken condition fails the test after `limit` instead of hanging the run,
/// and cancelling the task ends the wait. The condition is checked once more when the time is up, so a wait whose
/// task was kept from running past its deadline still sees a condition that holds. The default, 5 s, is plenty
/// when nothing starves the cooperative pool (no test blocks a thread of it: see the Development article).
/// - Throws: `WaitTimedOut` after `limit`, `CancellationError` when cancelled, or what `condition` throws.
public func waitUntil(
    _ what: @autoclosure () -> String = "the condition", within limit: Duration = .seconds(5),
    every interval: Duration = .milliseconds(1), isolation: isolated (any Actor)? = #isolation,
    _ condition: () async throws -> Bool
) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now + limit
    var pause = interval
    while try await !condition() {
        guard clock.now < deadline else {
            if try await condition() { return }
            throw WaitTimedOut(what: what(), limit: limit)
        }
        try await Task.sleep(for: min(pause, max(clock.now.duration(to: deadline), .zero)))
        pause = min(pause * 2, interval * 16)
    }
}

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
/// Every wait in a test is bounded, but the bound only ends a hang: a broken condition fails the test after `limit`
/// instead of hanging the run, and cancelling the task ends the wait. The default is a minute, because a state is
/// not late when a busy machine runs the task that makes it seconds later (700 tests started at once on 2 cores
/// kept a gate's caller waiting 18 s). A shorter `limit` belongs only to a test about a time window, which says so
/// beside it. The condition is checked once more when the time is up, so a wait whose task was kept from running
/// past its deadline still sees a condition that holds.
/// - Throws: `WaitTimedOut` after `limit`, `CancellationError` when cancelled, or what `condition` throws.
public func waitUntil(
    _ what: @autoclosure () -> String = "the condition", within limit: Duration = .seconds(60),
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

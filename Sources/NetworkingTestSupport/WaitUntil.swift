/// A wait that ended before its condition held.
public struct WaitTimedOut: Error, CustomStringConvertible {
    public var what: String
    public var limit: Duration

    public var description: String { "gave up waiting after \(limit) for \(what)" }
}

/// Waits until `condition` holds, checking it every `interval` (a millisecond by default) in the caller's
/// isolation; a condition that costs a round trip (a browser, a process) should be checked less often.
///
/// Every wait in a test is bounded: a broken condition fails the test after `limit` instead of hanging the run,
/// and cancelling the task ends the wait.
/// - Throws: `WaitTimedOut` after `limit`, `CancellationError` when cancelled, or what `condition` throws.
public func waitUntil(
    _ what: @autoclosure () -> String = "the condition", within limit: Duration = .seconds(5),
    every interval: Duration = .milliseconds(1), isolation: isolated (any Actor)? = #isolation,
    _ condition: () async throws -> Bool
) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now + limit
    while try await !condition() {
        guard clock.now < deadline else { throw WaitTimedOut(what: what(), limit: limit) }
        try await Task.sleep(for: interval)
    }
}

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
/// and cancelling the task ends the wait. The default, 15 s, leaves room for the parallel suite on 2 cores, where
/// tests that read sockets blocking can hold both threads of the cooperative pool for seconds (5 s was seen to
/// run out in a coverage run while a condition the code met was waiting for a thread).
/// - Throws: `WaitTimedOut` after `limit`, `CancellationError` when cancelled, or what `condition` throws.
public func waitUntil(
    _ what: @autoclosure () -> String = "the condition", within limit: Duration = .seconds(15),
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

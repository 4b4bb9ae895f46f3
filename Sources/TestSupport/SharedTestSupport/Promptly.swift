/// Runs `body` as a high-priority task and returns its result: for a test that plays a client which must answer
/// within a server's window (a ping within the idle timeout), however busy the rest of the suite keeps the pool.
///
/// Swift Testing starts every test at once, and a resumed task waits its turn behind every job queued before it at
/// its priority: at the start of a run on 2 cores that took seconds (1.2-3.4 s for a 10 ms sleep, measured) where a
/// high-priority task, served from a queue of its own, waited 0.17-0.27 s. Only waits that stand for a prompt
/// peer belong here; everything else waits its turn.
public func promptly<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await Task(priority: .high) { try await body() }.value
}

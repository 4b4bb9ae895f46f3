import Foundation

/// Runs `work` on a thread of its own and awaits its result: for code under test that blocks by design (a CLI's
/// write to a full pipe, a thread that must block a signal), never for waiting on a server or a process, which
/// `RawHTTPClient` and `ChildProcess` do without a thread.
///
/// Blocking on a task's own thread would hold one of the cooperative pool's few threads (two on a 2-CPU machine)
/// and stall every other test's tasks meanwhile. `.ci/check-blocking.py` allows blocking calls in `Tests/` only
/// inside closures given to this function or to a `Thread`.
package func blocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}

import Locking

/// Something that happens once (a child's exit, the end of its output, a gate opening), awaited by tasks without
/// holding a thread: a waiting task is suspended, not parked on a semaphore, so it costs the cooperative pool nothing
/// meanwhile.
public final class Occurrence: Sendable {
    private struct State {
        var happened = false
        var nextTicket = 0
        var waiting: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Lock(State())

    public init() {}

    /// Whether it has happened.
    public var hasHappened: Bool { state.withLock { $0.happened } }

    /// Marks it as happened and resumes every waiting task.
    public func happen() {
        let waiting = state.withLock { state in
            state.happened = true
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
        for continuation in waiting { continuation.resume() }
    }

    /// Waits at most `seconds` (or until the task is cancelled); whether it happened.
    public func wait(within seconds: Double) async -> Bool {
        if hasHappened { return true }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.wait() }
            group.addTask { try? await Task.sleep(for: .seconds(seconds)) }
            await group.next()
            group.cancelAll()
        }
        return hasHappened
    }

    /// Returns once it happened (at once when it has), or once the task is cancelled.
    public func wait() async {
        let ticket = state.withLock { state in
            state.nextTicket += 1
            return state.nextTicket
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state in
                    if state.happened || Task.isCancelled { return true }
                    state.waiting[ticket] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiting.removeValue(forKey: ticket) }?.resume()
        }
    }
}

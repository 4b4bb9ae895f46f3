import Locking

/// Holds the callers of a fake until the test opens it, so that a test can look at a view model mid-load.
///
/// ```swift
/// let gate = Gate()
/// // the fake calls `await gate.pass()` before answering
/// let load = Task { await model.viewAppeared() }
/// try await gate.waitUntilEntered()     // bounded: fails after 5 s
/// #expect(model.state == .loading)
/// gate.open()
/// ```
public final class Gate: Sendable {
    private struct State {
        var entered = 0
        var isOpen = false
        var waiting: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Lock(State())

    public init(open: Bool = false) {
        state.withLock { $0.isOpen = open }
    }

    /// How many callers reached the gate so far.
    public var enteredCount: Int { state.withLock { $0.entered } }

    /// Waits until the gate is open (at once when it is), or until the calling task is cancelled.
    public func pass() async {
        let ticket = state.withLock { state -> Int? in
            state.entered += 1
            return state.isOpen ? nil : state.entered
        }
        guard let ticket else { return }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state in
                    if state.isOpen || Task.isCancelled { return true }
                    state.waiting[ticket] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiting.removeValue(forKey: ticket) }?.resume()
        }
    }

    /// Lets every waiting caller and every later one through.
    public func open() {
        let waiting = state.withLock { state in
            state.isOpen = true
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
        for continuation in waiting { continuation.resume() }
    }

    /// Waits until `count` callers have reached the gate (bounded as `waitUntil` is).
    /// - Throws: `WaitTimedOut` after `limit`.
    public func waitUntilEntered(
        count: Int = 1, within limit: Duration = .seconds(5), isolation: isolated (any Actor)? = #isolation
    ) async throws {
        try await waitUntil("\(count) caller(s) at the gate", within: limit) { enteredCount >= count }
    }
}

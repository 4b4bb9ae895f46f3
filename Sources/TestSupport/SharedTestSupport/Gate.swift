import Locking

/// Holds the callers of a fake until the test opens it, so that a test can look at a view model mid-load.
///
/// ```swift
/// let gate = Gate()
/// // the fake calls `await gate.pass()` before answering
/// let load = Task { await model.viewAppeared() }
/// try await gate.waitUntilEntered()     // bounded by a minute, which only ends a hang
/// #expect(model.state == .loading)
/// gate.open()
/// ```
public final class Gate: Sendable {
    private let entered = Lock(0)
    private let opened = Occurrence()

    public init(open: Bool = false) {
        if open { opened.happen() }
    }

    /// How many callers reached the gate so far.
    public var enteredCount: Int { entered.withLock { $0 } }

    /// Waits until the gate is open (at once when it is), or until the calling task is cancelled.
    public func pass() async {
        entered.withLock { $0 += 1 }
        await opened.wait()
    }

    /// Lets every waiting caller and every later one through.
    public func open() {
        opened.happen()
    }

    /// Waits until `count` callers have reached the gate (bounded as `waitUntil` is).
    /// - Throws: `WaitTimedOut` after `limit`.
    public func waitUntilEntered(
        count: Int = 1, within limit: Duration = .seconds(60), isolation: isolated (any Actor)? = #isolation
    ) async throws {
        try await waitUntil("\(count) caller(s) at the gate", within: limit) { enteredCount >= count }
    }
}

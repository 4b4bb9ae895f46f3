import Dispatch
import Synchronization

/// Resumes a continuation at most once, keeping the signal sources that may resume it alive.
final class ResumeOnce: Sendable {
    private let state: Mutex<(continuation: CheckedContinuation<String, Never>?, sources: [any DispatchSourceSignal])>

    init(_ continuation: CheckedContinuation<String, Never>) {
        state = Mutex((continuation, []))
    }

    func retain(_ source: any DispatchSourceSignal) {
        state.withLock { $0.sources.append(source) }
    }

    func resume(returning value: String) {
        let continuation = state.withLock { state in
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(returning: value)
    }
}

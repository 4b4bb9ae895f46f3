import DessertsFeature
import Locking
import Networking
import NetworkingTestSupport
import Testing

/// A `DessertsClient` for view-model tests: answers from queues the test fills, records the ids asked for, and
/// runs `onCall` on the main actor before answering (to look at the view model mid-load). A call with nothing
/// queued fails the test.
final class FakeDessertsClient: DessertsClient {
    private let lists: ResultQueue<[DessertSummary]>
    private let meals: ResultQueue<MealDetail?>
    private let state = Lock<(askedIDs: [String], onCall: (@MainActor @Sendable () -> Void)?, hold: Gate?)>(
        ([], nil, nil))

    init(lists: [Result<[DessertSummary], APIError>] = [], meals: [Result<MealDetail?, APIError>] = []) {
        self.lists = ResultQueue("FakeDessertsClient", lists)
        self.meals = ResultQueue("FakeDessertsClient", meals)
    }

    func onCall(_ action: @escaping @MainActor @Sendable () -> Void) {
        state.withLock { $0.onCall = action }
    }

    var askedIDs: [String] { state.withLock { $0.askedIDs } }

    /// Makes the next `meal(id:)` take its answer, then wait at `gate` before giving it.
    func holdNextMeal(at gate: Gate) {
        state.withLock { $0.hold = gate }
    }

    func desserts() async throws(APIError) -> [DessertSummary] {
        if let onCall = state.withLock({ $0.onCall }) { await onCall() }
        return try lists.next(for: "desserts()")
    }

    func meal(id: String) async throws(APIError) -> MealDetail? {
        if let onCall = state.withLock({ $0.onCall }) { await onCall() }
        let gate = state.withLock { state in
            state.askedIDs.append(id)
            defer { state.hold = nil }
            return state.hold
        }
        let answer = Result { () throws(APIError) in try meals.next(for: "meal(id: \(id))") }
        await gate?.pass()
        return try answer.get()
    }
}

import DessertsFeature
import Networking
import Synchronization

/// A `DessertsClient` for view-model tests: answers from queues the test fills, records the ids asked for, and
/// runs `onCall` on the main actor before answering (to look at the view model mid-load). An empty queue fails
/// loudly.
final class FakeDessertsClient: DessertsClient {
    private struct State {
        var lists: [Result<[DessertSummary], APIError>] = []
        var meals: [Result<MealDetail?, APIError>] = []
        var askedIDs: [String] = []
        var onCall: (@MainActor @Sendable () -> Void)?
    }

    private let state = Mutex(State())

    init(lists: [Result<[DessertSummary], APIError>] = [], meals: [Result<MealDetail?, APIError>] = []) {
        state.withLock {
            $0.lists = lists
            $0.meals = meals
        }
    }

    func onCall(_ action: @escaping @MainActor @Sendable () -> Void) {
        state.withLock { $0.onCall = action }
    }

    var askedIDs: [String] { state.withLock { $0.askedIDs } }

    func desserts() async throws(APIError) -> [DessertSummary] {
        if let onCall = state.withLock({ $0.onCall }) { await onCall() }
        let next = state.withLock { $0.lists.isEmpty ? nil : $0.lists.removeFirst() }
        guard let next else { throw .transport("FakeDessertsClient.desserts() called with nothing queued") }
        return try next.get()
    }

    func meal(id: String) async throws(APIError) -> MealDetail? {
        if let onCall = state.withLock({ $0.onCall }) { await onCall() }
        let next = state.withLock { state in
            state.askedIDs.append(id)
            return state.meals.isEmpty ? nil : state.meals.removeFirst()
        }
        guard let next else { throw .transport("FakeDessertsClient.meal(id: \(id)) called with nothing queued") }
        return try next.get()
    }
}

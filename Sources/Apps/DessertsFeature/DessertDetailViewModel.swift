import Foundation
import Networking
public import Observation

/// One dessert's detail screen: loads the meal by id through a `DessertsClient`.
@MainActor @Observable
public final class DessertDetailViewModel {
    /// What the detail screen shows.
    public enum State: Equatable, Sendable {
        case idle
        case loading
        case loaded(MealDetail)
        /// The API does not know this id (`{"meals": null}`): not a failure, nothing to retry.
        case notFound
        /// A readable message; `retryTapped()` tries again.
        case failed(String)
    }

    public let id: String
    /// The name from the list, shown while the detail loads.
    public let title: String
    public private(set) var state = State.idle
    private let client: any DessertsClient
    /// Counts loads, so that an answer to a superseded load is dropped.
    private var generation = 0

    public init(id: String, title: String, client: any DessertsClient) {
        self.id = id
        self.title = title
        self.client = client
    }

    public convenience init(summary: DessertSummary, client: any DessertsClient) {
        self.init(id: summary.id, title: summary.name, client: client)
    }

    public func viewAppeared() async {
        guard state == .idle else { return }
        await load()
    }

    public func retryTapped() async {
        await load()
    }

    private func load() async {
        generation += 1
        let current = generation
        state = .loading
        do {
            let meal = try await client.meal(id: id)
            guard current == generation else { return }
            state = meal.map(State.loaded) ?? .notFound
        } catch {
            guard current == generation else { return }
            state = .failed(error.message)
        }
    }
}

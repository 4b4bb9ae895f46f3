public import Foundation
import Networking
public import Observation

/// The desserts list: loads through a `DessertsClient`, sorted by name for the user's locale.
@MainActor @Observable
public final class DessertListViewModel {
    /// What the list screen shows.
    public enum State: Equatable, Sendable {
        case idle
        case loading
        case loaded([DessertSummary])
        case empty
        /// A readable message; `retryTapped()` tries again.
        case failed(String)
    }

    public private(set) var state = State.idle
    private let client: any DessertsClient
    private let locale: Locale
    private var generation = 0

    /// - Parameters:
    ///   - client: fetches the desserts.
    ///   - locale: orders the names.
    public init(client: any DessertsClient, locale: Locale = .current) {
        self.client = client
        self.locale = locale
    }

    /// The screen appeared: loads unless loaded or loading.
    public func viewAppeared() async {
        guard state == .idle else { return }
        await load()
    }

    public func retryTapped() async {
        await load()
    }

    public func refreshPulled() async {
        await load()
    }

    private func load() async {
        generation += 1
        let current = generation
        state = .loading
        do {
            let desserts = try await client.desserts()
            guard current == generation else { return }
            state = desserts.isEmpty ? .empty : .loaded(Self.sorted(desserts, locale: locale))
        } catch {
            guard current == generation else { return }
            state = .failed(error.message)
        }
    }

    /// Sorted by name, case-insensitively in `locale`'s order; equal names by id.
    static func sorted(_ desserts: [DessertSummary], locale: Locale) -> [DessertSummary] {
        desserts.sorted { lhs, rhs in
            switch lhs.name.compare(rhs.name, options: [.caseInsensitive], range: nil, locale: locale) {
            case .orderedAscending: true
            case .orderedDescending: false
            case .orderedSame: lhs.id < rhs.id
            }
        }
    }
}

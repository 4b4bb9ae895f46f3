import Foundation
import Networking
public import Observation

/// The movie search app's one view model: searches, keeps the last results and screen across launches, and
/// exposes everything the screen shows as one `ScreenState`.
@MainActor @Observable
public final class MovieListViewModel: ViewModel {
    /// What the screen shows; every change is also passed to `onStateChange`.
    public private(set) var state = ScreenState.idle {
        didSet { onStateChange?(state) }
    }
    /// Called with every new state, in order (a UIKit view binds here).
    public var onStateChange: (@MainActor (ScreenState) -> Void)?
    /// The current list, also while the details screen shows.
    public private(set) var movies: [Movie] = []
    /// The last query searched.
    public private(set) var query = ""
    /// A problem that did not stop the screen, such as a failed save; nil when there is none.
    public private(set) var notice: String?

    private let client: any MoviesClient
    private let store: any MovieStore
    private let stateStore: any AppStateStore
    private let country: String
    /// Counts searches, so that the answer to a superseded one is dropped.
    private var generation = 0

    /// - Parameters:
    ///   - client: searches movies.
    ///   - store: keeps the last results.
    ///   - stateStore: keeps the last query, screen and selected movie.
    ///   - country: the store country searched, `au` by default.
    public init(client: any MoviesClient, store: any MovieStore, stateStore: any AppStateStore, country: String = "au")
    {
        self.client = client
        self.store = store
        self.stateStore = stateStore
        self.country = country
    }

    /// Shows what was stored, without a network call: the list, or the details screen if that was the last one
    /// and its movie is still stored. With nothing stored the state stays idle.
    public func setupPersistedData() async {
        do {
            let saved = try await stateStore.loadState()
            let stored = try await store.getAll()
            movies = stored
            query = saved?.lastQuery ?? ""
            guard !stored.isEmpty else { return }
            if saved?.screen == .details, let id = saved?.selectedMovieID,
                let movie = stored.first(where: { $0.id == id })
            {
                state = .displayDetails(movie)
            } else {
                state = .displayList(stored)
            }
        } catch {
            notice = "Your saved movies couldn't be read, so the list starts empty."
            state = .idle
        }
    }

    /// Searches `query`; a blank query clears the list without a request. A failure leaves the stored list as it
    /// was; a new search works after any failure.
    public func search(query: String) async {
        generation += 1
        let current = generation
        let term = query.trimmingCharacters(in: .whitespacesAndNewlines)
        notice = nil
        guard !term.isEmpty else {
            movies = []
            self.query = ""
            state = .idle
            await save { () throws(MovieStoreError) in try await store.deleteAll() }
            await persist(AppState())
            return
        }
        self.query = term
        state = .loading(true)
        do {
            let found = try await client.search(MovieSearch(term: term, country: country))
            guard current == generation else { return }
            state = .loading(false)
            movies = found
            await save { () throws(MovieStoreError) in try await store.saveAll(found) }
            state = found.isEmpty ? .empty(query: term) : .displayList(found)
            await persist(AppState(lastQuery: term))
        } catch {
            guard current == generation else { return }
            state = .loading(false)
            state = .error(error.message)
        }
    }

    /// Moves to the list, or to the details of `movieId` when it is in the current list.
    public func change(state screen: Screen, movieId: Int?) async {
        switch screen {
        case .details:
            guard let movieId, let movie = movies.first(where: { $0.id == movieId }) else { return }
            state = .displayDetails(movie)
            await persist(AppState(lastQuery: query, screen: .details, selectedMovieID: movieId))
        case .list:
            state = movies.isEmpty ? (query.isEmpty ? .idle : .empty(query: query)) : .displayList(movies)
            await persist(AppState(lastQuery: query))
        }
    }

    private func save(_ write: () async throws(MovieStoreError) -> Void) async {
        do {
            try await write()
        } catch {
            notice = "These results couldn't be saved; the previously saved list is kept."
        }
    }

    private func persist(_ appState: AppState) async {
        do {
            try await stateStore.saveState(appState)
        } catch {
            // A failed save of the results says more; keep it.
            notice = notice ?? "The app couldn't remember this screen for next time."
        }
    }
}

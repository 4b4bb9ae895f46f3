import Foundation
import MoviesFeature
import Networking
import Synchronization

/// A `MoviesClient` answering from a queue; an unqueued search fails loudly. Records every search.
final class FakeMoviesClient: MoviesClient {
    private let state = Mutex<(results: [Result<[Movie], APIError>], searches: [MovieSearch])>(([], []))

    init(_ results: [Result<[Movie], APIError>] = []) {
        state.withLock { $0.results = results }
    }

    var searches: [MovieSearch] { state.withLock { $0.searches } }

    func search(_ search: MovieSearch) async throws(APIError) -> [Movie] {
        let next = state.withLock { state in
            state.searches.append(search)
            return state.results.isEmpty ? nil : state.results.removeFirst()
        }
        guard let next else { throw .transport("FakeMoviesClient.search(\(search.term)) called with nothing queued") }
        return try next.get()
    }
}

/// An in-memory `MovieStore` and `AppStateStore` whose operations can be made to fail, to test what the view
/// model does when persistence breaks.
final class FakeMovieStore: MovieStore, AppStateStore {
    struct Contents {
        var movies: [Movie] = []
        var appState: AppState?
        var failSaves = false
        var failReads = false
        var saves = 0
    }

    private let contents: Mutex<Contents>

    init(_ contents: Contents = Contents()) {
        self.contents = Mutex(contents)
    }

    var snapshot: Contents { contents.withLock { $0 } }

    func update(_ change: (inout Contents) -> Void) {
        contents.withLock { change(&$0) }
    }

    func saveAll(_ movies: [Movie]) async throws(MovieStoreError) {
        try contents.withLock { (contents: inout Contents) throws(MovieStoreError) in
            guard !contents.failSaves else { throw .failed("disk full") }
            contents.movies = movies
            contents.saves += 1
        }
    }

    func getAll() async throws(MovieStoreError) -> [Movie] {
        try contents.withLock { (contents: inout Contents) throws(MovieStoreError) in
            guard !contents.failReads else {
                throw .unreadable(path: "/fake/Movies.sqlite", detail: "file is not a database")
            }
            return contents.movies
        }
    }

    func deleteAll() async throws(MovieStoreError) {
        try contents.withLock { (contents: inout Contents) throws(MovieStoreError) in
            guard !contents.failSaves else { throw .failed("disk full") }
            contents.movies = []
        }
    }

    func loadState() async throws(MovieStoreError) -> AppState? {
        try contents.withLock { (contents: inout Contents) throws(MovieStoreError) in
            guard !contents.failReads else {
                throw .unreadable(path: "/fake/Movies.sqlite", detail: "file is not a database")
            }
            return contents.appState
        }
    }

    func saveState(_ state: AppState) async throws(MovieStoreError) {
        try contents.withLock { (contents: inout Contents) throws(MovieStoreError) in
            guard !contents.failSaves else { throw .failed("disk full") }
            contents.appState = state
        }
    }
}

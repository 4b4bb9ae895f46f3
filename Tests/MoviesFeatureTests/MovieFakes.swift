import Foundation
import Locking
import MoviesFeature
import Networking
import NetworkingTestSupport
import Testing

/// A `MoviesClient` answering from a queue, recording every search; a search with nothing queued fails the test.
final class FakeMoviesClient: MoviesClient {
    private let results: ResultQueue<[Movie]>
    private let recorded = Lock<[MovieSearch]>([])

    init(_ results: [Result<[Movie], APIError>] = []) {
        self.results = ResultQueue("FakeMoviesClient", results)
    }

    var searches: [MovieSearch] { recorded.withLock { $0 } }

    func search(_ search: MovieSearch) async throws(APIError) -> [Movie] {
        recorded.withLock { $0.append(search) }
        return try results.next(for: "search(\(search.term.debugDescription))")
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

    private let contents: Lock<Contents>

    init(_ contents: Contents = Contents()) {
        self.contents = Lock(contents)
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

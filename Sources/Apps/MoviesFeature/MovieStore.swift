import Foundation

/// Where the last search's movies are kept between launches.
public protocol MovieStore: Sendable {
    /// Replaces the stored list with `movies`, in order, all or nothing.
    func saveAll(_ movies: [Movie]) async throws(MovieStoreError)
    /// The stored list, in the order it was saved.
    func getAll() async throws(MovieStoreError) -> [Movie]
    func deleteAll() async throws(MovieStoreError)
}

/// What the app was showing, kept between launches.
public struct AppState: Sendable, Equatable {
    public var lastQuery: String
    public var screen: Screen
    public var selectedMovieID: Int?

    public init(lastQuery: String = "", screen: Screen = .list, selectedMovieID: Int? = nil) {
        self.lastQuery = lastQuery
        self.screen = screen
        self.selectedMovieID = selectedMovieID
    }
}

/// Where `AppState` is kept between launches.
public protocol AppStateStore: Sendable {
    /// The saved state, or nil when none was saved.
    func loadState() async throws(MovieStoreError) -> AppState?
    func saveState(_ state: AppState) async throws(MovieStoreError)
}

/// Why the movie store failed.
public enum MovieStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The database file is not a database or is damaged.
    case unreadable(path: String, detail: String)
    /// A read or write failed; a failed write changed nothing.
    case failed(String)

    public var description: String {
        switch self {
        case .unreadable(let path, let detail): "the movie database at \(path) cannot be read: \(detail)"
        case .failed(let detail): "the movie database failed: \(detail)"
        }
    }
}

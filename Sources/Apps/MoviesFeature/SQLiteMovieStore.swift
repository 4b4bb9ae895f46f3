public import Foundation
import Persistence

/// `MovieStore` and `AppStateStore` in one SQLite database: a file, or memory for tests.
public final class SQLiteMovieStore: MovieStore, AppStateStore {
    private let database: SQLiteDatabase

    /// The schema, one entry per version; `PRAGMA user_version` records how many were applied.
    static let migrations = [
        """
        CREATE TABLE movies (
            id INTEGER PRIMARY KEY, position INTEGER NOT NULL, name TEXT NOT NULL, trackPrice REAL, currency TEXT,
            previewUrl TEXT, imageUrl TEXT, genre TEXT, longDescription TEXT);
        CREATE TABLE app_state (key TEXT PRIMARY KEY, value TEXT);
        """
    ]

    /// The default file: `Movies.sqlite` in the application-support directory.
    public static var defaultURL: URL {
        let support =
            FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? FileManager.default.temporaryDirectory
        return support.appendingPathComponent("CatalogKit/Movies.sqlite")
    }

    /// Opens (creating and migrating if needed) the database at `url`.
    /// - Throws: `MovieStoreError.unreadable` when the file is not a database or is damaged, `.failed` otherwise.
    public init(url: URL = SQLiteMovieStore.defaultURL) throws(MovieStoreError) {
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        database = try Self.open(url.path)
    }

    /// A private in-memory database, for tests.
    public static func inMemory() throws(MovieStoreError) -> SQLiteMovieStore {
        SQLiteMovieStore(database: try open(":memory:"))
    }

    private init(database: SQLiteDatabase) {
        self.database = database
    }

    /// Opens `url`; when it is not a readable database, moves it aside (kept for inspection, never deleted) and
    /// starts an empty one.
    /// - Returns: the store and where the unreadable file was moved, if it was.
    public static func openRecovering(url: URL = SQLiteMovieStore.defaultURL) throws(MovieStoreError) -> (
        SQLiteMovieStore, movedAside: URL?
    ) {
        do {
            return (try SQLiteMovieStore(url: url), nil)
        } catch .unreadable {
            let aside = url.appendingPathExtension("unreadable-\(Int(Date().timeIntervalSince1970))")
            do {
                try FileManager.default.moveItem(at: url, to: aside)
            } catch {
                throw .failed("cannot move the unreadable database aside: \(error)")
            }
            return (try SQLiteMovieStore(url: url), aside)
        }
    }

    private static func open(_ path: String) throws(MovieStoreError) -> SQLiteDatabase {
        do {
            let database = try SQLiteDatabase(path: path)
            try database.migrate(migrations)
            return database
        } catch {
            throw error.isCorruption ? .unreadable(path: path, detail: error.message) : .failed(error.description)
        }
    }

    /// The recorded schema version.
    public func schemaVersion() throws(MovieStoreError) -> Int {
        try run { () throws(SQLiteError) in try database.userVersion() }
    }

    // MARK: MovieStore

    public func saveAll(_ movies: [Movie]) async throws(MovieStoreError) {
        try run { () throws(SQLiteError) in
            try database.transaction { connection throws(SQLiteError) in
                try connection.execute("DELETE FROM movies")
                try connection.executeMany(
                    """
                    INSERT INTO movies (id, position, name, trackPrice, currency, previewUrl, imageUrl, genre, longDescription)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                    movies.enumerated().map { position, movie in
                        [
                            .integer(Int64(movie.id)), .integer(Int64(position)), .text(movie.name),
                            .optional(movie.trackPrice),
                            .optional(movie.currency), .optional(movie.previewURL?.absoluteString),
                            .optional(movie.artworkURL?.absoluteString), .optional(movie.genre),
                            .optional(movie.longDescription),
                        ]
                    })
            }
        }
    }

    public func getAll() async throws(MovieStoreError) -> [Movie] {
        let rows = try run { () throws(SQLiteError) in
            try database.read { connection throws(SQLiteError) in
                try connection.query("SELECT * FROM movies ORDER BY position")
            }
        }
        return rows.compactMap { row in
            guard let id = row["id"]?.integer, let name = row["name"]?.text else { return nil }
            return Movie(
                id: Int(id), name: name, trackPrice: row["trackPrice"]?.real, currency: row["currency"]?.text,
                previewURL: row["previewUrl"]?.text.flatMap(URL.init(string:)),
                artworkURL: row["imageUrl"]?.text.flatMap(URL.init(string:)), genre: row["genre"]?.text,
                longDescription: row["longDescription"]?.text)
        }
    }

    public func deleteAll() async throws(MovieStoreError) {
        try run { () throws(SQLiteError) in
            try database.write { connection throws(SQLiteError) in try connection.execute("DELETE FROM movies") }
        }
    }

    // MARK: AppStateStore

    public func loadState() async throws(MovieStoreError) -> AppState? {
        let rows = try run { () throws(SQLiteError) in
            try database.read { connection throws(SQLiteError) in
                try connection.query("SELECT key, value FROM app_state")
            }
        }
        guard !rows.isEmpty else { return nil }
        var values: [String: String] = [:]
        for row in rows {
            if let key = row["key"]?.text { values[key] = row["value"]?.text }
        }
        return AppState(
            lastQuery: values["lastQuery"] ?? "", screen: values["screen"].flatMap(Screen.init(rawValue:)) ?? .list,
            selectedMovieID: values["selectedMovieID"].flatMap { Int($0) })
    }

    public func saveState(_ state: AppState) async throws(MovieStoreError) {
        try run { () throws(SQLiteError) in
            try database.transaction { connection throws(SQLiteError) in
                try connection.executeMany(
                    "INSERT OR REPLACE INTO app_state (key, value) VALUES (?, ?)",
                    [
                        [.text("lastQuery"), .text(state.lastQuery)], [.text("screen"), .text(state.screen.rawValue)],
                        [.text("selectedMovieID"), .optional(state.selectedMovieID.map(String.init))],
                    ])
            }
        }
    }

    private func run<T>(_ body: () throws(SQLiteError) -> T) throws(MovieStoreError) -> T {
        do {
            return try body()
        } catch {
            throw error.isCorruption
                ? .unreadable(path: database.path, detail: error.message) : .failed(error.description)
        }
    }
}

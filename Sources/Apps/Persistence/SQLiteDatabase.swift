import CSQLite
import Foundation
import Locking

/// An SQLite database file (or `:memory:`), used from any thread: every call holds the connection's lock.
public final class SQLiteDatabase: Sendable {
    /// The file's path, or `:memory:`.
    public let path: String
    private let connection: Lock<SQLiteConnection>

    /// Opens (creating if needed) the database at `path`; `:memory:` for a private in-memory database.
    /// - Throws: `SQLiteError` when the file cannot be opened.
    public init(path: String) throws(SQLiteError) {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close_v2(handle)
            throw SQLiteError(code: code & 0xFF, message: "\(message): \(path)")
        }
        sqlite3_busy_timeout(handle, 2000)
        self.path = path
        connection = Lock(SQLiteConnection(handle: handle))
    }

    deinit {
        connection.withLock { _ = sqlite3_close_v2($0.handle) }
    }

    /// Runs `body` with the connection, holding the lock, read-only (SQLite's `query_only`).
    /// - Throws: what `body` throws; a write inside it fails with `SQLiteError.isReadOnly` and a message saying to
    ///   use `write` or `transaction`.
    public func read<T: Sendable>(_ body: (SQLiteConnection) throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        try connection.withLock { (connection: inout SQLiteConnection) throws(SQLiteError) -> T in
            try connection.execute("PRAGMA query_only = ON")
            defer { try? connection.execute("PRAGMA query_only = OFF") }
            do throws(SQLiteError) {
                return try body(connection)
            } catch  where error.isReadOnly {
                var explained = error
                explained.message = "a write inside read(_:) (use write(_:) or transaction(_:)): \(error.message)"
                throw explained
            }
        }
    }

    /// Runs `body`, which may write, in a transaction: the same as `transaction(_:)`.
    public func write<T: Sendable>(_ body: (SQLiteConnection) throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        try transaction(body)
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    /// - Throws: what `body` throws (after the rollback), or `SQLiteError` from BEGIN or COMMIT.
    public func transaction<T: Sendable>(_ body: (SQLiteConnection) throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        try connection.withLock { (connection: inout SQLiteConnection) throws(SQLiteError) -> T in
            try connection.execute("BEGIN IMMEDIATE")
            do throws(SQLiteError) {
                let result = try body(connection)
                try connection.execute("COMMIT")
                return result
            } catch {
                try? connection.execute("ROLLBACK")
                throw error
            }
        }
    }

    /// `PRAGMA user_version`: the schema version this project records.
    public func userVersion() throws(SQLiteError) -> Int {
        try read { connection throws(SQLiteError) in
            Int(try connection.query("PRAGMA user_version").first?["user_version"]?.integer ?? 0)
        }
    }

    /// Applies `migrations[n]` for every version n at or above the recorded one, each in a transaction that also
    /// records its version; the first migration takes version 0 to 1.
    /// - Throws: `SQLiteError`; a failed migration leaves the database at the last version that succeeded.
    public func migrate(_ migrations: [String]) throws(SQLiteError) {
        let current = try userVersion()
        for (index, sql) in migrations.enumerated() where index >= current {
            try transaction { connection throws(SQLiteError) in
                try connection.execute(sql)
                try connection.execute("PRAGMA user_version = \(index + 1)")
            }
        }
    }
}

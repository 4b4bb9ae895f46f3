/// A failed SQLite call: its result code, SQLite's message and the statement, if any.
public struct SQLiteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The primary result code, such as 19 (`SQLITE_CONSTRAINT`) or 26 (`SQLITE_NOTADB`).
    public var code: Int32
    public var message: String
    public var sql: String?

    public init(code: Int32, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    /// The file is not a database or is damaged (`SQLITE_NOTADB`, `SQLITE_CORRUPT`).
    public var isCorruption: Bool { code == 26 || code == 11 }

    /// A constraint such as a primary key or NOT NULL failed (`SQLITE_CONSTRAINT`).
    public var isConstraint: Bool { code == 19 }

    /// A write was refused: inside `SQLiteDatabase.read`, or on a read-only file (`SQLITE_READONLY`).
    public var isReadOnly: Bool { code == 8 }

    public var description: String {
        "SQLite error \(code): \(message)" + (sql.map { " in \($0)" } ?? "")
    }
}

import CSQLite
import Foundation

/// An open SQLite handle: prepares, binds, steps. Not thread-safe by itself; `SQLiteDatabase` serializes its use.
public struct SQLiteConnection {
    let handle: OpaquePointer

    /// Runs one statement, or several separated by `;` when there are no bindings.
    /// - Throws: `SQLiteError` with SQLite's message.
    public func execute(_ sql: String, _ bindings: [SQLiteValue] = []) throws(SQLiteError) {
        if bindings.isEmpty {
            var error: UnsafeMutablePointer<CChar>?
            let code = sqlite3_exec(handle, sql, nil, nil, &error)
            if code != SQLITE_OK {
                let message = error.map { String(cString: $0) } ?? lastMessage
                sqlite3_free(error)
                throw SQLiteError(code: code & 0xFF, message: message, sql: sql)
            }
            return
        }
        _ = try query(sql, bindings)
    }

    /// Runs one statement for every set of bindings, preparing it once.
    public func executeMany(_ sql: String, _ rows: [[SQLiteValue]]) throws(SQLiteError) {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        for bindings in rows {
            try bind(bindings, to: statement, sql: sql)
            let code = sqlite3_step(statement)
            guard code == SQLITE_DONE || code == SQLITE_ROW else { throw failure(code, sql) }
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
    }

    /// Runs one statement and returns its rows, each as column name to value.
    public func query(_ sql: String, _ bindings: [SQLiteValue] = []) throws(SQLiteError) -> [[String: SQLiteValue]] {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        try bind(bindings, to: statement, sql: sql)
        var rows: [[String: SQLiteValue]] = []
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return rows }
            guard code == SQLITE_ROW else { throw failure(code, sql) }
            var row: [String: SQLiteValue] = [:]
            for column in 0..<sqlite3_column_count(statement) {
                row[String(cString: sqlite3_column_name(statement, column))] = value(statement, column)
            }
            rows.append(row)
        }
    }

    private func prepare(_ sql: String) throws(SQLiteError) -> OpaquePointer {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw failure(code, sql) }
        return statement
    }

    private func bind(_ values: [SQLiteValue], to statement: OpaquePointer, sql: String) throws(SQLiteError) {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32 =
                switch value {
                case .null: sqlite3_bind_null(statement, index)
                case .integer(let number): sqlite3_bind_int64(statement, index, number)
                case .real(let number): sqlite3_bind_double(statement, index, number)
                case .text(let text): sqlite3_bind_text(statement, index, text, -1, Self.transient)
                case .blob(let data):
                    data.withUnsafeBytes {
                        sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), Self.transient)
                    }
                }
            guard code == SQLITE_OK else { throw failure(code, sql) }
        }
    }

    private func value(_ statement: OpaquePointer, _ column: Int32) -> SQLiteValue {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, column))
        case SQLITE_TEXT: return .text(String(cString: sqlite3_column_text(statement, column)))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, column))
            guard count > 0, let bytes = sqlite3_column_blob(statement, column) else { return .blob(Data()) }
            return .blob(Data(bytes: bytes, count: count))
        default: return .null
        }
    }

    private var lastMessage: String { String(cString: sqlite3_errmsg(handle)) }

    private func failure(_ code: Int32, _ sql: String) -> SQLiteError {
        SQLiteError(code: code & 0xFF, message: lastMessage, sql: sql)
    }

    /// `SQLITE_TRANSIENT`: SQLite copies bound text and blobs before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

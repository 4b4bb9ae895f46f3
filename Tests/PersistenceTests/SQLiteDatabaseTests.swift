import Foundation
import Persistence
import TestTurns
import Testing

@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct SQLiteDatabaseTests {
    private func temporaryFile() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("db-\(UUID().uuidString).sqlite")
    }

    @Test func values_roundTripEveryType() throws {
        let database = try SQLiteDatabase(path: ":memory:")
        try database.write { connection throws(SQLiteError) in
            try connection.execute("CREATE TABLE t (i INTEGER, r REAL, s TEXT, b BLOB, n TEXT)")
            try connection.execute(
                "INSERT INTO t VALUES (?, ?, ?, ?, ?)",
                [.integer(-42), .real(4.5), .text("été 🎬 'quoted'"), .blob(Data([0, 1, 255])), .null])
        }
        let rows = try database.read { connection throws(SQLiteError) in try connection.query("SELECT * FROM t") }
        #expect(
            rows == [
                [
                    "i": .integer(-42), "r": .real(4.5), "s": .text("été 🎬 'quoted'"), "b": .blob(Data([0, 1, 255])),
                    "n": .null,
                ]
            ])
    }

    @Test func transaction_rollsBackEverythingWhenAStatementFails() throws {
        let database = try SQLiteDatabase(path: ":memory:")
        try database.write { connection throws(SQLiteError) in
            try connection.execute("CREATE TABLE t (id INTEGER PRIMARY KEY); INSERT INTO t VALUES (1)")
        }
        #expect {
            try database.transaction { connection throws(SQLiteError) in
                try connection.execute("DELETE FROM t")
                try connection.executeMany("INSERT INTO t VALUES (?)", [[.integer(2)], [.integer(2)]])
            }
        } throws: { error in
            (error as? SQLiteError)?.isConstraint == true
        }
        let ids = try database.read { connection throws(SQLiteError) in try connection.query("SELECT id FROM t") }
        #expect(ids == [["id": .integer(1)]])
    }

    @Test func migrate_appliesOnlyNewVersionsAndRecordsThem() throws {
        let file = temporaryFile()
        defer { try? FileManager.default.removeItem(at: file) }
        let first = try SQLiteDatabase(path: file.path)
        try first.migrate(["CREATE TABLE a (x)"])
        #expect(try first.userVersion() == 1)
        let reopened = try SQLiteDatabase(path: file.path)
        try reopened.migrate(["CREATE TABLE a (x)", "ALTER TABLE a ADD COLUMN y"])
        #expect(try reopened.userVersion() == 2)
        let columns = try reopened.read { connection throws(SQLiteError) in try connection.query("PRAGMA table_info(a)")
        }
        #expect(columns.compactMap { $0["name"]?.text } == ["x", "y"])
    }

    @Test func migrate_stopsAtTheFailingVersion() throws {
        let database = try SQLiteDatabase(path: ":memory:")
        #expect(throws: SQLiteError.self) { try database.migrate(["CREATE TABLE a (x)", "NOT SQL"]) }
        #expect(try database.userVersion() == 1)
    }

    @Test func aFileThatIsNotADatabase_isReportedAsCorruption() throws {
        let file = temporaryFile()
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(repeating: 0x41, count: 4096).write(to: file)
        let database = try SQLiteDatabase(path: file.path)
        #expect {
            try database.userVersion()
        } throws: { error in
            guard let error = error as? SQLiteError else { return false }
            return error.isCorruption && error.message == "file is not a database"
        }
    }

    @Test func errors_carryTheStatementAndMessage() throws {
        let database = try SQLiteDatabase(path: ":memory:")
        #expect {
            try database.read { connection throws(SQLiteError) in try connection.query("SELECT * FROM missing") }
        } throws: { error in
            (error as? SQLiteError)?.description == "SQLite error 1: no such table: missing in SELECT * FROM missing"
        }
        #expect(throws: SQLiteError.self) { try SQLiteDatabase(path: "/nonexistent-dir/x/y.sqlite") }
    }

    @Test(arguments: ["CREATE TABLE u (x)", "INSERT INTO t VALUES (2)", "DELETE FROM t", "UPDATE t SET id = 3"])
    func aWriteInsideRead_failsClearly_andChangesNothing(_ sql: String) throws {
        let database = try SQLiteDatabase(path: ":memory:")
        try database.write { connection throws(SQLiteError) in
            try connection.execute("CREATE TABLE t (id INTEGER PRIMARY KEY); INSERT INTO t VALUES (1)")
        }
        #expect {
            try database.read { connection throws(SQLiteError) in try connection.execute(sql) }
        } throws: { error in
            guard let error = error as? SQLiteError else { return false }
            return error.isReadOnly
                && error.message.hasPrefix("a write inside read(_:) (use write(_:) or transaction(_:))")
        }
        let ids = try database.read { connection throws(SQLiteError) in try connection.query("SELECT id FROM t") }
        #expect(ids == [["id": .integer(1)]])
        try database.write { connection throws(SQLiteError) in try connection.execute("INSERT INTO t VALUES (2)") }
        #expect(
            try database.read { connection throws(SQLiteError) in try connection.query("SELECT id FROM t") }.count == 2)
    }
}

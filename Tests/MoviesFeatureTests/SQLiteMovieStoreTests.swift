import Foundation
import TestTurns
import Testing

@testable import MoviesFeature

/// The movie store on real SQLite files.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct SQLiteMovieStoreTests {
    static func movies(_ ids: ClosedRange<Int>) -> [Movie] {
        ids.map { id in
            Movie(
                id: id, name: "Movie \(id)", trackPrice: id.isMultiple(of: 2) ? 9.99 : nil, currency: "AUD",
                previewURL: URL(string: "https://video.test/\(id).m4v"),
                artworkURL: URL(string: "https://art.test/\(id).jpg"),
                genre: "Drama", longDescription: id.isMultiple(of: 3) ? nil : "About \(id).")
        }
    }

    private func temporaryFile() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("movies-\(UUID().uuidString)/Movies.sqlite")
    }

    @Test func saveAll_replacesTheListAndKeepsItsOrder() async throws {
        let store = try SQLiteMovieStore.inMemory()
        try await store.saveAll(Self.movies(1...5))
        let reversed = Array(Self.movies(3...8).reversed())
        try await store.saveAll(reversed)
        #expect(try await store.getAll() == reversed)
    }

    @Test func aFailedSave_rollsBackAndThePreviousListRemains() async throws {
        let store = try SQLiteMovieStore.inMemory()
        try await store.saveAll(Self.movies(1...3))
        let duplicate = Self.movies(10...12) + Self.movies(10...10)
        await #expect {
            try await store.saveAll(duplicate)
        } throws: { error in
            guard case .failed(let detail) = error as? MovieStoreError else { return false }
            return detail.contains("UNIQUE constraint failed: movies.id")
        }
        #expect(try await store.getAll() == Self.movies(1...3))
    }

    @Test func theFile_survivesReopening() async throws {
        let file = temporaryFile()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        do {
            let store = try SQLiteMovieStore(url: file)
            try await store.saveAll(Self.movies(1...4))
            try await store.saveState(AppState(lastQuery: "star", screen: .details, selectedMovieID: 3))
        }
        let reopened = try SQLiteMovieStore(url: file)
        #expect(try await reopened.getAll() == Self.movies(1...4))
        #expect(try await reopened.loadState() == AppState(lastQuery: "star", screen: .details, selectedMovieID: 3))
        #expect(try reopened.schemaVersion() == SQLiteMovieStore.migrations.count)
        try await reopened.deleteAll()
        #expect(try await reopened.getAll().isEmpty)
    }

    @Test func appState_isNilUntilSavedAndRoundTripsNilSelection() async throws {
        let store = try SQLiteMovieStore.inMemory()
        #expect(try await store.loadState() == nil)
        try await store.saveState(AppState(lastQuery: "a", screen: .details, selectedMovieID: 1))
        try await store.saveState(AppState(lastQuery: "b"))
        #expect(try await store.loadState() == AppState(lastQuery: "b", screen: .list, selectedMovieID: nil))
    }

    @Test func aCorruptFile_isReportedClearly() throws {
        let file = temporaryFile()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("this is not a database, it is a text file that got here somehow".utf8).write(to: file)
        #expect(throws: MovieStoreError.unreadable(path: file.path, detail: "file is not a database")) {
            try SQLiteMovieStore(url: file)
        }
    }

    @Test func openRecovering_movesACorruptFileAsideAndStartsEmpty() async throws {
        let file = temporaryFile()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let garbage = Data(repeating: 0x5A, count: 8192)
        try garbage.write(to: file)
        let (store, aside) = try SQLiteMovieStore.openRecovering(url: file)
        #expect(try await store.getAll().isEmpty)
        let moved = try #require(aside)
        #expect(FileManager.default.contents(atPath: moved.path) == garbage, "the unreadable file is kept, not deleted")
        let (_, nothingMoved) = try SQLiteMovieStore.openRecovering(url: file)
        #expect(nothingMoved == nil)
    }
}

import Foundation
import MoviesFeature
import Networking
import NetworkingTestSupport
import StubServer
import StubServerInProcess
import TestTurns
import Testing

/// The movie search through the real client and a real SQLite file against the stub server.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
@MainActor
struct MoviesEndToEndTests {
    private func withMovies(
        _ transport: Transport, _ body: (Stubs, MovieListViewModel, URL) async throws -> Void
    ) async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "e2e-movies-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: file) }
        try await Stubs.with(transport, realHost: URL.iTunes) { stubs in
            let store = try SQLiteMovieStore(url: file)
            let model = MovieListViewModel(
                client: LiveMoviesClient(http: stubs.client(), baseURL: stubs.baseURL), store: store, stateStore: store)
            try await body(stubs, model, file)
        }
    }

    @Test(arguments: Transport.allCases) func good_showsFiftyMoviesAndSurvivesARelaunch(_ transport: Transport)
        async throws
    {
        try await withMovies(transport) { stubs, model, file in
            let server = stubs.server
            await model.search(query: "star")
            guard case .displayList(let movies) = model.state else {
                Issue.record("expected the list, got \(model.state)")
                return
            }
            #expect(movies.count == 50, "the results without a trackId or a name are skipped")
            #expect(Set(movies.map(\.id)).count == 50)
            #expect(movies.contains { $0.longDescription == nil } && movies.contains { $0.trackPrice == nil })
            #expect(movies.first?.priceText(locale: Locale(identifier: "en_AU"))?.hasPrefix("$") == true)
            let request = try #require(try await server.journal(JournalQuery(stub: "movie-search")).first)
            #expect(request.target == "/search?term=star&country=au&media=movie")
            await model.change(state: .details, movieId: movies[7].id)

            let store = try SQLiteMovieStore(url: file)
            let relaunched = MovieListViewModel(
                client: LiveMoviesClient(http: stubs.client(), baseURL: stubs.baseURL), store: store, stateStore: store)
            try await server.clearJournal()
            await relaunched.setupPersistedData()
            #expect(relaunched.state == .displayDetails(movies[7]))
            #expect(try await server.requestCount(JournalQuery()) == 0, "restoring needs no network")
        }
    }

    @Test(
        arguments: Transport.allCases,
        [
            ("bad", ScreenState.error(APIError.decoding(path: "", description: "").message)),
            ("nil", .error(APIError.emptyBody.message)),
            ("server-error", .error(APIError.status(503, body: Data()).message)),
            ("drop", .error(APIError.transport("").message)),
            ("empty", .empty(query: "star")),
        ])
    func eachVariant_endsInItsStateAndFailuresKeepTheStoredList(
        _ transport: Transport, _ example: (String, ScreenState)
    ) async throws {
        let (variant, expected) = example
        try await withMovies(transport) { stubs, model, file in
            let server = stubs.server
            await model.search(query: "star")
            guard case .displayList(let before) = model.state else {
                Issue.record("expected the list, got \(model.state)")
                return
            }
            try await server.setVariant(variant, forStub: "movie-search")
            await model.search(query: "star")
            #expect(model.state == expected)
            let stored = try await SQLiteMovieStore(url: file).getAll()
            if case .error = expected {
                #expect(stored == before)
            } else {
                #expect(stored.isEmpty)
            }
        }
    }

    @Test(arguments: Transport.allCases) func aSearchTheStubsDoNotCover_isAnError(_ transport: Transport) async throws {
        let refusing = try RefusingPort()
        try await withMovies(transport) { stubs, model, _ in
            let unmatched = MovieListViewModel(
                client: LiveMoviesClient(http: realClient(), baseURL: refusing.baseURL),
                store: try SQLiteMovieStore.inMemory(), stateStore: try SQLiteMovieStore.inMemory())
            await unmatched.search(query: "star")
            #expect(unmatched.state == .error(APIError.transport("").message))
            await model.search(query: "   ")
            #expect(model.state == .idle)
        }
    }

    /// A sweep's finding, kept: a movie named with zero-width characters only (`results[*].trackName:text-zero-width`)
    /// showed an empty row; it is skipped now, as a result without a name always was.
    @Test(arguments: Transport.allCases) func search_skipsInvisibleNames(_ transport: Transport) async throws {
        try await withMovies(transport) { stubs, model, _ in
            try await stubs.server.setVariant("invisible-text", forStub: "movie-search")
            await model.search(query: "star")
            guard case .displayList(let movies) = model.state else {
                Issue.record("expected the list, got \(model.state)")
                return
            }
            #expect(movies.map(\.name) == ["Star Wars"])
        }
    }
}

import Foundation
import Networking
import TestTurns
import Testing

@testable import MoviesFeature

@Suite(.takesTurns, .timeLimit(.minutes(1)))
@MainActor
struct MovieListViewModelTests {
    private static let movies = SQLiteMovieStoreTests.movies(1...3)

    private func make(
        _ results: [Result<[Movie], APIError>] = [], store: FakeMovieStore = FakeMovieStore()
    ) -> (MovieListViewModel, FakeMoviesClient, FakeMovieStore, Recorder) {
        let client = FakeMoviesClient(results)
        let model = MovieListViewModel(client: client, store: store, stateStore: store)
        let recorder = Recorder()
        model.onStateChange = { recorder.states.append($0) }
        return (model, client, store, recorder)
    }

    @MainActor
    final class Recorder {
        var states: [ScreenState] = []
    }

    @Test func search_goesThroughLoadingToTheListAndStoresIt() async {
        let (model, client, store, recorder) = make([.success(Self.movies)])
        await model.search(query: "  star wars ")
        #expect(recorder.states == [.loading(true), .loading(false), .displayList(Self.movies)])
        #expect(client.searches == [MovieSearch(term: "star wars", country: "au")])
        #expect(store.snapshot.movies == Self.movies)
        #expect(store.snapshot.appState == AppState(lastQuery: "star wars"))
        #expect(model.query == "star wars")
        #expect(model.notice == nil)
    }

    @Test func search_withNoResults_showsEmptyWithTheQuery() async {
        let (model, _, store, recorder) = make([.success([])], store: FakeMovieStore(.init(movies: Self.movies)))
        await model.search(query: "zzzz")
        #expect(recorder.states == [.loading(true), .loading(false), .empty(query: "zzzz")])
        #expect(store.snapshot.movies.isEmpty, "a successful search replaces the stored list, also with nothing")
    }

    @Test(arguments: ["", "   ", "\n\t"])
    func blankQuery_clearsTheListWithoutARequest(_ query: String) async {
        let (model, client, store, recorder) = make(
            store: FakeMovieStore(.init(movies: Self.movies, appState: AppState(lastQuery: "star"))))
        await model.setupPersistedData()
        await model.search(query: query)
        #expect(client.searches.isEmpty)
        #expect(recorder.states == [.displayList(Self.movies), .idle])
        #expect(model.movies.isEmpty)
        #expect(store.snapshot.movies.isEmpty)
        #expect(store.snapshot.appState == AppState())
    }

    @Test(arguments: [
        APIError.status(503, body: Data()), .transport("connection lost"), .decoding(path: "results", description: "x"),
        .timeout,
    ])
    func failedSearch_showsAnErrorKeepsTheStoredListAndANewSearchWorks(_ error: APIError) async {
        let stored = FakeMovieStore(.init(movies: Self.movies, appState: AppState(lastQuery: "old")))
        let fresh = SQLiteMovieStoreTests.movies(7...8)
        let (model, _, store, recorder) = make([.failure(error), .success(fresh)], store: stored)
        await model.setupPersistedData()
        await model.search(query: "new")
        #expect(recorder.states == [.displayList(Self.movies), .loading(true), .loading(false), .error(error.message)])
        #expect(store.snapshot.movies == Self.movies)
        #expect(store.snapshot.saves == 0)
        #expect(model.movies == Self.movies)
        await model.search(query: "new")
        #expect(recorder.states.suffix(3) == [.loading(true), .loading(false), .displayList(fresh)])
        #expect(store.snapshot.movies == fresh)
    }

    @Test func failedSave_stillShowsTheResultsAndSaysSo() async {
        let (model, _, store, recorder) = make(
            [.success(Self.movies)], store: FakeMovieStore(.init(movies: [Movie(id: 99, name: "Old")], failSaves: true))
        )
        await model.search(query: "star")
        #expect(recorder.states.last == .displayList(Self.movies))
        #expect(model.notice == "These results couldn't be saved; the previously saved list is kept.")
        #expect(store.snapshot.movies == [Movie(id: 99, name: "Old")])
    }

    @Test func setupPersistedData_withNothingStored_staysIdleWithoutARequest() async {
        let (model, client, _, recorder) = make()
        await model.setupPersistedData()
        #expect(model.state == .idle)
        #expect(recorder.states.isEmpty)
        #expect(client.searches.isEmpty)
    }

    @Test func setupPersistedData_showsTheStoredList() async {
        let (model, client, _, recorder) = make(
            store: FakeMovieStore(.init(movies: Self.movies, appState: AppState(lastQuery: "star"))))
        await model.setupPersistedData()
        #expect(recorder.states == [.displayList(Self.movies)])
        #expect(model.query == "star")
        #expect(client.searches.isEmpty)
    }

    @Test func setupPersistedData_reopensTheDetailsScreen() async {
        let saved = AppState(lastQuery: "star", screen: .details, selectedMovieID: 2)
        let (model, _, _, recorder) = make(store: FakeMovieStore(.init(movies: Self.movies, appState: saved)))
        await model.setupPersistedData()
        #expect(recorder.states == [.displayDetails(Self.movies[1])])
    }

    @Test func setupPersistedData_fallsBackToTheListWhenTheMovieIsGone() async {
        let saved = AppState(lastQuery: "star", screen: .details, selectedMovieID: 404)
        let (model, _, _, recorder) = make(store: FakeMovieStore(.init(movies: Self.movies, appState: saved)))
        await model.setupPersistedData()
        #expect(recorder.states == [.displayList(Self.movies)])
    }

    @Test func setupPersistedData_withAnUnreadableStore_startsEmptyAndSaysSo() async {
        let (model, _, _, _) = make(store: FakeMovieStore(.init(movies: Self.movies, failReads: true)))
        await model.setupPersistedData()
        #expect(model.state == .idle)
        #expect(model.movies.isEmpty)
        #expect(model.notice == "Your saved movies couldn't be read, so the list starts empty.")
    }

    @Test func change_movesBetweenListAndDetailsAndRemembersIt() async {
        let (model, _, store, recorder) = make([.success(Self.movies)])
        await model.search(query: "star")
        await model.change(state: .details, movieId: 3)
        #expect(recorder.states.last == .displayDetails(Self.movies[2]))
        #expect(store.snapshot.appState == AppState(lastQuery: "star", screen: .details, selectedMovieID: 3))
        await model.change(state: .details, movieId: 404)
        #expect(recorder.states.last == .displayDetails(Self.movies[2]), "an unknown id changes nothing")
        await model.change(state: .list, movieId: nil)
        #expect(recorder.states.last == .displayList(Self.movies))
        #expect(store.snapshot.appState == AppState(lastQuery: "star"))
    }

    @Test func change_toTheListWithoutMovies_showsIdleOrEmpty() async {
        let (model, _, _, recorder) = make([.success([])])
        await model.change(state: .list, movieId: nil)
        #expect(recorder.states == [.idle])
        await model.search(query: "nothing")
        await model.change(state: .list, movieId: nil)
        #expect(recorder.states.last == .empty(query: "nothing"))
    }

    @Test func failedStateSave_isANoticeNotAFailure() async {
        let (model, _, store, _) = make([.success(Self.movies)])
        await model.search(query: "star")
        store.update { $0.failSaves = true }
        await model.change(state: .details, movieId: 1)
        #expect(model.state == .displayDetails(Self.movies[0]))
        #expect(model.notice == "The app couldn't remember this screen for next time.")
    }

    @Test func theFullRestoreCycle_worksOnARealSQLiteFile() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("vm-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: file) }
        do {
            let store = try SQLiteMovieStore(url: file)
            let model = MovieListViewModel(
                client: FakeMoviesClient([.success(Self.movies)]), store: store, stateStore: store)
            await model.search(query: "star")
            await model.change(state: .details, movieId: 2)
        }
        let store = try SQLiteMovieStore(url: file)
        let client = FakeMoviesClient()
        let relaunched = MovieListViewModel(client: client, store: store, stateStore: store)
        await relaunched.setupPersistedData()
        #expect(relaunched.state == .displayDetails(Self.movies[1]))
        #expect(relaunched.movies == Self.movies)
        #expect(client.searches.isEmpty)
    }
}

import Foundation
import MoviesFeature
import Networking
import StubServerTesting
import StubTestSupport
import TestTurns
import Testing

/// The movie search against the mutants of the good search answer, with the app's SQLite store in memory: after
/// the search, movies with readable names, the empty state or a readable error, never idle or loading.
// Ten minutes: under SWEEP=all (CI's sweep step) thousands of cases start at once and each case's clock runs
// while it waits its turn, so a minute fails cases that are only queued.
@Suite(.takesTurns(.heavy), .timeLimit(.minutes(10)))
@MainActor
struct MoviesSweepTests {
    @Test(arguments: try Sweep.cases(StubMutant.all(of: "movie-search")))
    func theMovieSearch_endsReadable(_ mutant: StubMutant) async throws {
        try await mutant.withStubs { stubs in
            let store = try SQLiteMovieStore.inMemory()
            let model = MovieListViewModel(
                client: LiveMoviesClient(http: Sweep.client(stubs.sessionConfiguration), baseURL: .iTunes),
                store: store, stateStore: store)
            await model.search(query: "star")
            switch model.state {
            case .displayList(let movies):
                #expect(!movies.isEmpty, "\(mutant.id): a list with no movies")
                for movie in movies { ScreenText.expectReadable(movie.name, "a movie's name", mutant: mutant.id) }
            case .empty:
                break
            case .error(let message):
                ScreenText.expectReadable(message, "the error", mutant: mutant.id)
            case .idle, .loading, .displayDetails:
                Issue.record("\(mutant.id): the search ended \(model.state)")
            }
        }
    }
}

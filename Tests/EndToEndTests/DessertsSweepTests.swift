import DessertsFeature
import Foundation
import Networking
import StubServerTesting
import TestTurns
import Testing

/// The desserts list against the mutants of the good desserts answer, as `AlbumsSweepTests` runs the albums:
/// after the load, rows with names, the empty state or a readable failure.
// Ten minutes: under SWEEP=all (CI's sweep step) thousands of cases start at once and each case's clock runs
// while it waits its turn, so a minute fails cases that are only queued.
@Suite(.takesTurns, .timeLimit(.minutes(10)))
@MainActor
struct DessertsSweepTests {
    @Test(arguments: try Sweep.cases(StubMutant.all(of: "desserts")))
    func theDessertList_endsReadable(_ mutant: StubMutant) async throws {
        try await mutant.withStubs { stubs in
            let model = DessertListViewModel(
                client: LiveDessertsClient(
                    http: Sweep.client(stubs.sessionConfiguration), baseURL: MealDBEndpoint.liveBaseURL),
                locale: Locale(identifier: "en_US"))
            await model.viewAppeared()
            switch model.state {
            case .loaded(let rows):
                #expect(!rows.isEmpty, "\(mutant.id): loaded with no rows")
                for row in rows { ScreenText.expectReadable(row.name, "a row's name", mutant: mutant.id) }
            case .empty:
                break
            case .failed(let message):
                ScreenText.expectReadable(message, "the failure", mutant: mutant.id)
            case .idle, .loading:
                Issue.record("\(mutant.id): the list is still \(model.state) after the load")
            }
        }
    }
}

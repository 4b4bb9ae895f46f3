import Foundation
import Networking
import StubServerTesting
import StubTestSupport
import TestTurns
import Testing
import TrackSearchFeature

/// The track search's first page against the mutants of its good answer: after the page, rows with readable
/// titles and kinds, the empty state or a readable failure, never idle or loading.
// Ten minutes: under SWEEP=all (CI's sweep step) thousands of cases start at once and each case's clock runs
// while it waits its turn, so a minute fails cases that are only queued.
@Suite(.takesTurns(.heavy), .timeLimit(.minutes(10)))
@MainActor
struct TrackSearchSweepTests {
    @Test(arguments: try Sweep.cases(StubMutant.all(of: "jack-johnson-page-1")))
    func theFirstPage_endsReadable(_ mutant: StubMutant) async throws {
        try await mutant.withStubs { stubs in
            let model = TrackSearchViewModel(
                client: LiveTrackSearchClient(http: Sweep.client(stubs.sessionConfiguration), baseURL: .iTunes))
            await model.searchTextChanged("jack johnson")?.value
            switch model.status {
            case .loaded, .complete:
                #expect(!model.rows.isEmpty, "\(mutant.id): \(model.status) with no rows")
                for row in model.rows {
                    ScreenText.expectReadable(row.title, "a row's title", mutant: mutant.id)
                    ScreenText.expectReadable(row.kindLabel, "a row's kind", mutant: mutant.id)
                    if let artist = row.artist {
                        ScreenText.expectReadable(artist, "a row's artist", mutant: mutant.id)
                    }
                }
            case .empty:
                break
            case .failed(let message):
                ScreenText.expectReadable(message, "the failure", mutant: mutant.id)
            case .idle, .loading, .loadingMore, .offline:
                Issue.record("\(mutant.id): the first page ended \(model.status)")
            }
        }
    }
}

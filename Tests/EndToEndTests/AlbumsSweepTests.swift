import AlbumsFeature
import Foundation
import Networking
import StubServerTesting
import StubTestSupport
import TestTurns
import Testing

/// The album list against the mutants of the good top-albums answer, through the real URLSession client in
/// process: no crash, no hang (a 2 s request timeout bounds each case), and after the load the screen shows rows
/// with titles, the empty state or a readable failure, never a loading or idle screen. Which mutants: `Sweep`.
// Ten minutes: under SWEEP=all (CI's sweep step) thousands of cases start at once and each case's clock runs
// while it waits its turn, so a minute fails cases that are only queued.
@Suite(.takesTurns(.heavy), .timeLimit(.minutes(10)))
@MainActor
struct AlbumsSweepTests {
    @Test(arguments: try Sweep.cases(StubMutant.all(of: "top-albums")))
    func theAlbumList_endsReadable(_ mutant: StubMutant) async throws {
        try await mutant.withStubs { stubs in
            let model = AlbumListViewModel(
                client: LiveAlbumsClient(
                    http: Sweep.client(stubs.sessionConfiguration), baseURL: AlbumsEndpoint.v2Host))
            await model.viewAppeared()
            switch model.state {
            case .loaded(let rows):
                #expect(!rows.isEmpty, "\(mutant.id): loaded with no rows")
                for row in rows {
                    ScreenText.expectReadable(row.title, "a row's title", mutant: mutant.id)
                    ScreenText.expectReadable(row.artist, "a row's artist", mutant: mutant.id)
                }
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

import Foundation
import Networking
import NetworkingTestSupport
import StubServerTesting
import TestTurns
import Testing
import TopSongsFeature

/// The top songs against the mutants of the good XML feed (elements removed, twice, their text emptied or huge,
/// and the whole-answer ones): after the load, songs with readable names, the empty state or a readable failure,
/// never idle or loading.
// Ten minutes: under SWEEP=all (CI's sweep step) thousands of cases start at once and each case's clock runs
// while it waits its turn, so a minute fails cases that are only queued.
@Suite(.takesTurns, .timeLimit(.minutes(10)))
@MainActor
struct TopSongsSweepTests {
    @Test(arguments: try Sweep.cases(StubMutant.all(of: "top-songs")))
    func theTopSongs_endReadable(_ mutant: StubMutant) async throws {
        try await mutant.withStubs { stubs in
            let model = TopSongsViewModel(
                client: LiveTopSongsClient(http: Sweep.client(stubs.sessionConfiguration), baseURL: .iTunes),
                queue: OnlineWorkQueue(monitor: FakeConnectivityMonitor()))
            await model.viewAppeared()
            switch model.state {
            case .loaded(let songs):
                #expect(!songs.isEmpty, "\(mutant.id): loaded with no songs")
                for song in songs { ScreenText.expectReadable(song.displayName, "a song's name", mutant: mutant.id) }
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

import Foundation
import Networking
import NetworkingTestSupport
import Playback
import PlaybackTestSupport
import TestTurns
import Testing

@testable import TrackSearchFeature

@Suite(.takesTurns, .timeLimit(.minutes(1)))
@MainActor
struct TrackSearchViewModelTests {
    @MainActor
    final class Updates {
        var list: [TrackSearchViewModel.ListUpdate] = []
    }

    private func make(
        _ client: FakeTrackSearchClient, monitor: FakeConnectivityMonitor? = nil
    ) -> (TrackSearchViewModel, Updates) {
        let model = TrackSearchViewModel(client: client, monitor: monitor)
        let updates = Updates()
        model.onListUpdate = { updates.list.append($0) }
        return (model, updates)
    }

    @Test func scrolling_loadsEveryPageAsInsertionsUntilAShortPage() async {
        let client = FakeTrackSearchClient(catalog(total: 62))
        let (model, updates) = make(client)
        await model.searchTextChanged("jack johnson")?.value
        #expect(model.rows.count == 25)
        #expect(model.status == .loaded)
        await model.rowAppeared(at: 24)?.value
        await model.rowAppeared(at: 45)?.value
        #expect(model.rows.count == 62)
        #expect(model.status == .complete)
        #expect(model.rowAppeared(at: 61) == nil, "a short page ends the paging")
        #expect(updates.list == [.reload, .reload, .insert(25..<50), .insert(50..<62)])
        #expect(client.pages.map(\.offset) == [0, 25, 50])
        #expect(client.pages.allSatisfy { $0.term == "jack johnson" && $0.limit == 25 })
    }

    @Test(arguments: [0, 10, 19])
    func rowsFarFromTheEnd_loadNothing(_ index: Int) async {
        let client = FakeTrackSearchClient(catalog(total: 100))
        let (model, _) = make(client)
        await model.searchTextChanged("a")?.value
        #expect(model.rowAppeared(at: index) == nil)
        #expect(client.pages.count == 1)
    }

    @Test func anExactlyFullLastPage_endsWithAnEmptyPage() async {
        let client = FakeTrackSearchClient(catalog(total: 25))
        let (model, updates) = make(client)
        await model.searchTextChanged("a")?.value
        await model.rowAppeared(at: 24)?.value
        #expect(model.status == .complete)
        #expect(updates.list == [.reload, .reload], "an empty page inserts nothing")
        #expect(model.rowAppeared(at: 24) == nil)
    }

    @Test func onlyOnePageRequest_isInFlight() async throws {
        let client = FakeTrackSearchClient(catalog(total: 100))
        let (model, _) = make(client)
        await model.searchTextChanged("a")?.value
        client.hold()
        let first = model.rowAppeared(at: 22)
        #expect(model.status == .loadingMore)
        #expect(model.rowAppeared(at: 23) == nil)
        #expect(model.rowAppeared(at: 24) == nil)
        try await client.waitUntilHeld()
        client.release()
        await first?.value
        #expect(client.pages.map(\.offset) == [0, 25])
        #expect(model.rows.count == 50)
    }

    @Test func aNewTerm_cancelsTheOldAndDropsItsResults() async throws {
        let client = FakeTrackSearchClient(catalog(total: 100))
        let (model, updates) = make(client)
        client.hold()
        let stale = model.searchTextChanged("old")
        try await client.waitUntilHeld()
        let fresh = model.searchTextChanged("new")
        try await client.waitUntilHeld(count: 2)
        client.release()
        await stale?.value
        await fresh?.value
        #expect(model.rows.first?.title == "new 0")
        #expect(model.rows.allSatisfy { $0.title.hasPrefix("new") })
        #expect(updates.list == [.reload, .reload, .reload])
    }

    @Test(arguments: ["", "   ", "\n"])
    func aBlankTerm_clearsTheListWithoutARequest(_ term: String) async {
        let client = FakeTrackSearchClient(catalog(total: 30))
        let (model, updates) = make(client)
        await model.searchTextChanged("a")?.value
        #expect(model.searchTextChanged(term) == nil)
        #expect(model.rows.isEmpty)
        #expect(model.status == .idle)
        #expect(client.pages.count == 1)
        #expect(updates.list.last == .reload)
        #expect(model.rowAppeared(at: 0) == nil, "a blank term has no next page to load")
        #expect(client.pages.count == 1)
    }

    @Test func aFailedPage_showsAnErrorAndRetryLetsPagingGoOn() async {
        let client = FakeTrackSearchClient(catalog(total: 80))
        let (model, updates) = make(client)
        await model.searchTextChanged("a")?.value
        client.answer { page throws(APIError) in
            if page.offset == 25 { throw .status(500, body: Data()) }
            return songs(page.offset, 25, term: page.term)
        }
        await model.rowAppeared(at: 24)?.value
        #expect(model.status == .failed(APIError.status(500, body: Data()).message))
        #expect(model.rowAppeared(at: 24) == nil, "scrolling does not hammer a failed page")
        client.answer(with: catalog(total: 80))
        await model.retryTapped()?.value
        #expect(model.rows.count == 50)
        await model.rowAppeared(at: 49)?.value
        await model.rowAppeared(at: 74)?.value
        #expect(model.rows.count == 80)
        #expect(model.status == .complete)
        #expect(client.pages.map(\.offset) == [0, 25, 25, 50, 75])
        #expect(updates.list == [.reload, .reload, .insert(25..<50), .insert(50..<75), .insert(75..<80)])
    }

    @Test func aFailedFirstPage_canBeRetried() async {
        let client = FakeTrackSearchClient { _ throws(APIError) in throw .transport("refused") }
        let (model, _) = make(client)
        await model.searchTextChanged("a")?.value
        #expect(model.status == .failed(APIError.transport("").message))
        client.answer(with: catalog(total: 3))
        await model.retryTapped()?.value
        #expect(model.status == .complete)
        #expect(model.rows.count == 3)
    }

    @Test func noResults_isEmpty() async {
        let client = FakeTrackSearchClient(catalog(total: 0))
        let (model, _) = make(client)
        await model.searchTextChanged("nothing")?.value
        #expect(model.status == .empty)
    }

    @Test func repeatedResults_acrossPagesAppearOnce() async {
        let client = FakeTrackSearchClient { page throws(APIError) in
            page.offset == 0 ? songs(0, 25) : songs(20, 25)
        }
        let (model, updates) = make(client)
        await model.searchTextChanged("t")?.value
        await model.rowAppeared(at: 24)?.value
        #expect(model.rows.count == 45)
        #expect(Set(model.rows.map(\.id)).count == 45)
        #expect(updates.list.last == .insert(25..<45))
    }

    @Test func offline_waitsAndLoadsThePendingPageWhenTheNetworkReturns() async throws {
        let client = FakeTrackSearchClient(catalog(total: 60))
        let monitor = FakeConnectivityMonitor(.satisfied)
        let (model, _) = make(client, monitor: monitor)
        let watcher = Task { await model.monitorConnectivity() }
        defer { watcher.cancel() }
        await model.searchTextChanged("a")?.value
        monitor.set(.unsatisfied)
        await model.rowAppeared(at: 24)?.value
        #expect(model.status == .offline)
        #expect(client.pages.count == 1, "no request while offline")
        monitor.set(.satisfied)
        try await waitUntil("two pages of rows") { model.rows.count >= 50 }
        #expect(client.pages.map(\.offset) == [0, 25])
        #expect(model.status == .loaded)
    }

    @Test func anOfflineError_isRetriedWhenTheNetworkReturns() async throws {
        let client = FakeTrackSearchClient { _ throws(APIError) in throw .offline }
        let monitor = FakeConnectivityMonitor(.satisfied)
        let (model, _) = make(client, monitor: monitor)
        let watcher = Task { await model.monitorConnectivity() }
        defer { watcher.cancel() }
        await model.searchTextChanged("a")?.value
        #expect(model.status == .offline)
        client.answer(with: catalog(total: 10))
        monitor.set(.unsatisfied)
        monitor.set(.satisfied)
        try await waitUntil("ten rows") { model.rows.count >= 10 }
        #expect(model.status == .complete)
    }

    @Test func rowTapped_playsThePreviewThroughPlayback() async {
        let player = FakeMediaPlayer()
        let playback = PlaybackController(player: player)
        let client = FakeTrackSearchClient(catalog(total: 3))
        let model = TrackSearchViewModel(client: client, playback: playback)
        await model.searchTextChanged("a")?.value
        model.rowTapped(at: 1)
        #expect(player.played == [model.rows[1].previewURL].compactMap { $0 })
        #expect(model.playbackStatus(of: model.rows[1]) == .buffering)
        #expect(model.playbackStatus(of: model.rows[0]) == nil)
        model.rowTapped(at: 99)
        #expect(player.played.count == 1)
    }
}

import Foundation
import Networking
import NetworkingTestSupport
import Playback
import PlaybackTestSupport
import StubServer
import Testing
import TopSongsFeature

/// The top-songs feed through the real client against the stub server, including the network going away.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct TopSongsEndToEndTests {
    private func model(_ baseURL: URL, monitor: any ConnectivityMonitor = FakeConnectivityMonitor())
        -> TopSongsViewModel
    {
        TopSongsViewModel(
            client: LiveTopSongsClient(http: realClient(), baseURL: baseURL), queue: OnlineWorkQueue(monitor: monitor))
    }

    @Test func good_listsTheFeedWithPreviewsServedByTheStubServer() async throws {
        try await withStubServer(fixtures: mockData) { server in
            let model = model(server.baseURL)
            await model.viewAppeared()
            guard case .loaded(let songs) = model.state else {
                Issue.record("expected songs, got \(model.state)")
                return
            }
            #expect(songs.count == 27)
            #expect(songs[0].title == "Golden Hour - Mira Solano")
            #expect(songs[0].previewURL?.absoluteString == "\(server.baseURL)/previews/1527793042.m4a")
            #expect(songs[9].previewURL == nil, "the entry without a preview still appears")
            #expect(server.journal().first?.path == "/us/rss/topsongs/limit=25/xml")
            let detail = SongDetailViewModel(song: songs[0], playback: PlaybackController(player: FakeMediaPlayer()))
            #expect(detail.priceText() == "$0.69")
            #expect(detail.imageURL?.absoluteString.hasSuffix("170x170bb.png") == true)
        }
    }

    @Test(arguments: [
        ("bad", TopSongsViewModel.State.failed(APIError.decoding(path: "", description: "").message)),
        ("nil", .failed(APIError.emptyBody.message)),
        ("empty", .empty),
        ("server-error", .failed(APIError.status(503, body: Data()).message)),
        ("drop", .failed(APIError.transport("").message)),
    ])
    func eachVariant_endsInItsState(_ variant: String, expected: TopSongsViewModel.State) async throws {
        try await withStubServer(fixtures: mockData) { server in
            try server.setVariant(variant, forStub: "top-songs")
            let model = model(server.baseURL)
            await model.viewAppeared()
            #expect(model.state == expected)
        }
    }

    @Test func badXML_reportsWhereItBroke() async throws {
        try await withStubServer(fixtures: mockData) { server in
            try server.setVariant("bad", forStub: "top-songs")
            do {
                _ = try await LiveTopSongsClient(http: realClient(), baseURL: server.baseURL).topSongs()
                Issue.record("malformed XML was read")
            } catch {
                guard case .decoding(let path, _)? = error as? APIError else {
                    Issue.record("expected a decoding error, got \(error)")
                    return
                }
                #expect(path.hasPrefix("line 132, column"))
            }
        }
    }

    /// The network goes away and comes back (driven by the fake monitor) while the server keeps running.
    @Test func offlineThenOnline_theQueuedLoadRunsWhenTheNetworkReturns() async throws {
        try await withStubServer(fixtures: mockData) { server in
            let monitor = FakeConnectivityMonitor(.unsatisfied)
            let model = model(server.baseURL, monitor: monitor)
            let watcher = Task { await model.monitorConnectivity() }
            defer { watcher.cancel() }

            await model.viewAppeared()
            #expect(model.state == .idle)
            #expect(model.offlineNotice != nil)
            #expect(server.requestCount() == 0, "nothing was sent while offline")

            monitor.set(.satisfied)
            try await waitUntil("the queued load to finish online") {
                model.offlineNotice == nil && model.state != .idle && model.state != .loading
            }
            guard case .loaded(let songs) = model.state else {
                Issue.record("expected songs once the network returned, got \(model.state)")
                return
            }
            #expect(songs.count == 27)
            #expect(server.requestCount(JournalQuery(stub: "top-songs")) == 1, "the queued load ran exactly once")
        }
    }
}

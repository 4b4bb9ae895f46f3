import Foundation
import Networking
import NetworkingTestSupport
import Playback
import PlaybackTestSupport
import StubServer
import StubServerInProcess
import TestTurns
import Testing
import TopSongsFeature

/// The top-songs feed through the real client against the stub server, including the network going away.
@MainActor
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct TopSongsEndToEndTests {
    private func model(_ stubs: Stubs, monitor: any ConnectivityMonitor = FakeConnectivityMonitor())
        -> TopSongsViewModel
    {
        TopSongsViewModel(
            client: LiveTopSongsClient(http: stubs.client(), baseURL: stubs.baseURL),
            queue: OnlineWorkQueue(monitor: monitor))
    }

    @Test(arguments: Transport.allCases) func good_listsTheFeedWithPreviewsServedByTheStubServer(_ transport: Transport)
        async throws
    {
        try await Stubs.with(transport, realHost: URL.iTunes) { stubs in
            let server = stubs.server
            let model = model(stubs)
            await model.viewAppeared()
            guard case .loaded(let songs) = model.state else {
                Issue.record("expected songs, got \(model.state)")
                return
            }
            #expect(songs.count == 27)
            #expect(songs[0].title == "Golden Hour - Mira Solano")
            #expect(songs[0].previewURL?.absoluteString == "\(stubs.baseURL)/previews/1527793042.m4a")
            #expect(songs[9].previewURL == nil, "the entry without a preview still appears")
            let requests = try await server.journal(JournalQuery())
            #expect(requests.first?.path == "/us/rss/topsongs/limit=25/xml")
            let detail = SongDetailViewModel(song: songs[0], playback: PlaybackController(player: FakeMediaPlayer()))
            #expect(detail.priceText() == "$0.69")
            #expect(detail.imageURL?.absoluteString.hasSuffix("170x170bb.png") == true)
        }
    }

    @Test(
        arguments: Transport.allCases,
        [
            ("bad", TopSongsViewModel.State.failed(APIError.decoding(path: "", description: "").message)),
            ("nil", .failed(APIError.emptyBody.message)),
            ("empty", .empty),
            ("server-error", .failed(APIError.status(503, body: Data()).message)),
            ("drop", .failed(APIError.transport("").message)),
        ])
    func eachVariant_endsInItsState(_ transport: Transport, _ example: (String, TopSongsViewModel.State)) async throws {
        let (variant, expected) = example
        try await Stubs.with(transport, realHost: URL.iTunes) { stubs in
            let server = stubs.server
            try await server.setVariant(variant, forStub: "top-songs")
            let model = model(stubs)
            await model.viewAppeared()
            #expect(model.state == expected)
        }
    }

    @Test(arguments: Transport.allCases) func badXML_reportsWhereItBroke(_ transport: Transport) async throws {
        try await Stubs.with(transport, realHost: URL.iTunes) { stubs in
            let server = stubs.server
            try await server.setVariant("bad", forStub: "top-songs")
            do {
                _ = try await LiveTopSongsClient(http: stubs.client(), baseURL: stubs.baseURL).topSongs()
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
    @Test(arguments: Transport.allCases) func offlineThenOnline_theQueuedLoadRunsWhenTheNetworkReturns(
        _ transport: Transport
    ) async throws {
        try await Stubs.with(transport, realHost: URL.iTunes) { stubs in
            let server = stubs.server
            let monitor = FakeConnectivityMonitor(.unsatisfied)
            let model = model(stubs, monitor: monitor)
            let watcher = Task { await model.monitorConnectivity() }
            defer { watcher.cancel() }

            await model.viewAppeared()
            #expect(model.state == .idle)
            #expect(model.offlineNotice != nil)
            #expect(try await server.requestCount(JournalQuery()) == 0, "nothing was sent while offline")

            monitor.set(.satisfied)
            try await waitUntil("the queued load to finish online") {
                model.offlineNotice == nil && model.state != .idle && model.state != .loading
            }
            guard case .loaded(let songs) = model.state else {
                Issue.record("expected songs once the network returned, got \(model.state)")
                return
            }
            #expect(songs.count == 27)
            #expect(
                try await server.requestCount(JournalQuery(stub: "top-songs")) == 1, "the queued load ran exactly once")
        }
    }
}

import Foundation
import Locking
import Networking
import NetworkingTestSupport
import TestTurns
import Testing

@testable import AlbumsFeature

@Suite(.takesTurns, .timeLimit(.minutes(1)))
@MainActor
struct AlbumListViewModelTests {
    static let feed = AlbumFeed(
        copyright: "Feed ©",
        albums: [
            Album(
                id: "1", name: "Harbor Lights", artistName: "The Night Ferries",
                artworkURL: URL(string: "https://a/1.png")),
            Album(id: "2", name: nil, artistName: nil),
        ])

    /// Runs `action` and returns every state the view model showed: before, during the client call, after.
    private func transitions(
        _ model: AlbumListViewModel, _ client: FakeAlbumsClient, _ action: () async -> Void
    ) async -> [AlbumListViewModel.State] {
        let seen = Lock<[AlbumListViewModel.State]>([model.state])
        client.onCall { seen.withLock { $0.append(model.state) } }
        await action()
        seen.withLock { $0.append(model.state) }
        return seen.withLock { $0 }
    }

    @Test func viewAppeared_loadsRowsWithFallbackLabels() async {
        let client = FakeAlbumsClient([.success(Self.feed)])
        let model = AlbumListViewModel(client: client)
        let states = await transitions(model, client) { await model.viewAppeared() }
        #expect(
            states == [
                .idle, .loading,
                .loaded([
                    AlbumRow(
                        id: "1", title: "Harbor Lights", artist: "The Night Ferries",
                        thumbnailURL: URL(string: "https://a/1.png")),
                    AlbumRow(id: "2", title: "Untitled album", artist: "Unknown artist", thumbnailURL: nil),
                ]),
            ])
    }

    @Test func viewAppeared_showsEmptyForAFeedWithoutAlbums() async {
        let client = FakeAlbumsClient([.success(AlbumFeed(albums: []))])
        let model = AlbumListViewModel(client: client)
        #expect(await transitions(model, client) { await model.viewAppeared() } == [.idle, .loading, .empty])
    }

    @Test(arguments: [
        (APIError.transport("refused"), "Couldn't reach the server. Check your connection and try again."),
        (.timeout, "The server took too long to answer. Try again."),
        (.offline, "You're offline. Connect to the internet and try again."),
        (.status(503, body: Data()), "The server had a problem (error 503). Try again later."),
        (.emptyBody, "The server sent an empty answer."),
        (.decoding(path: "feed.results", description: "expected an array"), "The server's answer couldn't be read."),
        (.cancelled, "The request was cancelled."),
    ])
    func viewAppeared_showsAReadableFailure(_ error: APIError, message: String) async {
        let client = FakeAlbumsClient([.failure(error)])
        let model = AlbumListViewModel(client: client)
        #expect(await transitions(model, client) { await model.viewAppeared() } == [.idle, .loading, .failed(message)])
    }

    @Test func retryTapped_recoversFromAFailure() async {
        let client = FakeAlbumsClient([.failure(.timeout), .success(Self.feed)])
        let model = AlbumListViewModel(client: client)
        await model.viewAppeared()
        let states = await transitions(model, client) { await model.retryTapped() }
        #expect(states.prefix(2) == [.failed(APIError.timeout.message), .loading])
        guard case .loaded(let rows) = states.last else {
            Issue.record("expected rows, got \(String(describing: states.last))")
            return
        }
        #expect(rows.map(\.id) == ["1", "2"])
    }

    @Test func refreshPulled_replacesTheListRatherThanAppending() async {
        let second = AlbumFeed(albums: [Album(id: "9", name: "New", artistName: "B")])
        let client = FakeAlbumsClient([.success(Self.feed), .success(second)])
        let model = AlbumListViewModel(client: client)
        await model.viewAppeared()
        await model.refreshPulled()
        #expect(model.state == .loaded([AlbumRow(id: "9", title: "New", artist: "B", thumbnailURL: nil)]))
        #expect(model.feed == second)
    }

    @Test func viewAppeared_doesNotReloadALoadedList() async {
        let client = FakeAlbumsClient([.success(Self.feed)])
        let model = AlbumListViewModel(client: client)
        await model.viewAppeared()
        await model.viewAppeared()
        #expect(client.remaining == 0)
        #expect(model.feed == Self.feed, "a second call would have failed loudly with nothing queued")
    }

    @Test func aSupersededLoad_doesNotOverwriteTheNewerOne() async throws {
        let stale = AlbumFeed(albums: [Album(id: "old", name: "Old")])
        let fresh = AlbumFeed(albums: [Album(id: "new", name: "New")])
        let client = ParkedFirstCallClient(first: stale, then: fresh)
        let model = AlbumListViewModel(client: client)
        let first = Task { await model.viewAppeared() }
        try await client.gate.waitUntilEntered()
        await model.refreshPulled()
        #expect(model.feed == fresh)
        client.gate.open()
        await first.value
        #expect(model.feed == fresh, "the older answer arrived last and was dropped")
        #expect(
            model.state == .loaded([AlbumRow(id: "new", title: "New", artist: "Unknown artist", thumbnailURL: nil)]))
    }

    @Test func infoViewModel_usesTheFeedForTheSelectedRow() async throws {
        let client = FakeAlbumsClient([.success(Self.feed)])
        let model = AlbumListViewModel(client: client)
        #expect(model.infoViewModel(for: AlbumRow(Self.feed.albums[0])) == nil, "nothing loaded yet")
        await model.viewAppeared()
        let info = try #require(model.infoViewModel(for: AlbumRow(Self.feed.albums[1])))
        #expect(info.title == "Untitled album")
        #expect(info.copyright == "Feed ©")
        #expect(model.infoViewModel(for: AlbumRow(id: "nope", title: "", artist: "", thumbnailURL: nil)) == nil)
    }
}

/// Holds its first call at `gate` until the test opens it; answers later calls at once.
final class ParkedFirstCallClient: AlbumsClient {
    let gate = Gate()
    private let first: AlbumFeed
    private let then: AlbumFeed
    private let calls = Lock(0)

    init(first: AlbumFeed, then: AlbumFeed) {
        self.first = first
        self.then = then
    }

    func topAlbums() async throws(APIError) -> AlbumFeed {
        let call = calls.withLock { calls in
            calls += 1
            return calls
        }
        guard call == 1 else { return then }
        await gate.pass()
        return first
    }
}

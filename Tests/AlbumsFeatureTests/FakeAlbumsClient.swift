import AlbumsFeature
import Networking
import Synchronization

/// An `AlbumsClient` for view-model tests: answers with the results the test queued, one per call, after running
/// `onCall` on the main actor (to look at the view model mid-load). A call with nothing queued fails loudly.
final class FakeAlbumsClient: AlbumsClient {
    private let state = Mutex<(results: [Result<AlbumFeed, APIError>], onCall: (@MainActor @Sendable () -> Void)?)>(
        ([], nil))

    init(_ results: [Result<AlbumFeed, APIError>] = []) {
        state.withLock { $0.results = results }
    }

    func enqueue(_ result: Result<AlbumFeed, APIError>) {
        state.withLock { $0.results.append(result) }
    }

    func onCall(_ action: @escaping @MainActor @Sendable () -> Void) {
        state.withLock { $0.onCall = action }
    }

    var remaining: Int { state.withLock { $0.results.count } }

    func topAlbums() async throws(APIError) -> AlbumFeed {
        if let onCall = state.withLock({ $0.onCall }) { await onCall() }
        let next = state.withLock { $0.results.isEmpty ? nil : $0.results.removeFirst() }
        guard let next else { throw .transport("FakeAlbumsClient.topAlbums() called with no result queued") }
        return try next.get()
    }
}

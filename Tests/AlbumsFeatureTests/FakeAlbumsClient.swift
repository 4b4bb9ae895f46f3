import AlbumsFeature
import Locking
import Networking
import NetworkingTestSupport
import Testing

/// An `AlbumsClient` for view-model tests: answers with the results the test queued, one per call, after running
/// `onCall` on the main actor (to look at the view model mid-load). A call with nothing queued fails the test.
final class FakeAlbumsClient: AlbumsClient {
    private let results: ResultQueue<AlbumFeed>
    private let onCallAction = Lock<(@MainActor @Sendable () -> Void)?>(nil)

    init(_ results: [Result<AlbumFeed, APIError>] = []) {
        self.results = ResultQueue("FakeAlbumsClient", results)
    }

    func enqueue(_ result: Result<AlbumFeed, APIError>) {
        results.enqueue(result)
    }

    func onCall(_ action: @escaping @MainActor @Sendable () -> Void) {
        onCallAction.withLock { $0 = action }
    }

    var remaining: Int { results.remaining }

    func topAlbums() async throws(APIError) -> AlbumFeed {
        if let onCall = onCallAction.withLock({ $0 }) { await onCall() }
        return try results.next(for: "topAlbums()")
    }
}

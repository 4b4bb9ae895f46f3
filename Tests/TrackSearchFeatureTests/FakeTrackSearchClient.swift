import Foundation
import Locking
import Networking
import NetworkingTestSupport
import Testing
import TrackSearchFeature

/// A `TrackSearchClient` for view-model tests. Answers come from `answer(page)`; after `hold()`, each call waits
/// at a `Gate` until `release()`, so a test can act while a page is in flight. Records every page asked for; a call
/// with no answer set fails the test.
final class FakeTrackSearchClient: TrackSearchClient {
    typealias Answer = @Sendable (TrackSearchPage) throws(APIError) -> [Track]

    private struct State {
        var answer: Answer?
        var pages: [TrackSearchPage] = []
        var gate: Gate?
    }

    private let state = Lock(State())

    init(_ answer: Answer? = nil) {
        state.withLock { $0.answer = answer }
    }

    var pages: [TrackSearchPage] { state.withLock { $0.pages } }

    func answer(with answer: @escaping Answer) {
        state.withLock { $0.answer = answer }
    }

    /// Makes later calls wait for `release()`.
    func hold() {
        state.withLock { $0.gate = Gate() }
    }

    /// Waits until `count` calls wait at the gate of the last `hold()`.
    func waitUntilHeld(count: Int = 1) async throws {
        guard let gate = state.withLock({ $0.gate }) else { return }
        try await gate.waitUntilEntered(count: count)
    }

    /// Lets every waiting call go on, and later ones pass.
    func release() {
        state.withLock { state in
            defer { state.gate = nil }
            return state.gate
        }?.open()
    }

    func tracks(_ page: TrackSearchPage) async throws(APIError) -> [Track] {
        let gate = state.withLock { state in
            state.pages.append(page)
            return state.gate
        }
        await gate?.pass()
        if Task.isCancelled { throw .cancelled }
        guard let answer = state.withLock({ $0.answer }) else {
            let message = "FakeTrackSearchClient has no answer for \(page): set one in the test"
            TestFailure.record(message)
            throw .transport(message)
        }
        return try answer(page)
    }
}

/// `count` songs numbered from `start`, as one page of results.
func songs(_ start: Int, _ count: Int, term: String = "t") -> [Track] {
    (start..<(start + count)).map { index in
        Track(
            id: "track-\(term)-\(index)", wrapperType: "track", kind: "song", trackName: "\(term) \(index)",
            artistName: "Artist",
            durationMillis: 200_000, previewURL: URL(string: "https://audio.test/\(term)/\(index).m4a"))
    }
}

/// Answers pages of a catalog of `total` songs per term.
func catalog(total: Int) -> FakeTrackSearchClient.Answer {
    { page throws(APIError) in
        songs(page.offset, max(0, min(page.limit, total - page.offset)), term: page.term)
    }
}

import Foundation
import Networking
import Synchronization
import TrackSearchFeature

/// A `TrackSearchClient` for view-model tests. Answers come from `answer(page)`; with `holding` set, each call
/// waits until `release()` so a test can act while a page is in flight. Records every page asked for.
final class FakeTrackSearchClient: TrackSearchClient {
    typealias Answer = @Sendable (TrackSearchPage) throws(APIError) -> [Track]

    private struct State {
        var answer: Answer?
        var pages: [TrackSearchPage] = []
        var holding = false
        var held: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    init(_ answer: Answer? = nil) {
        state.withLock { $0.answer = answer }
    }

    var pages: [TrackSearchPage] { state.withLock { $0.pages } }
    var heldCount: Int { state.withLock { $0.held.count } }

    func answer(with answer: @escaping Answer) {
        state.withLock { $0.answer = answer }
    }

    /// Makes later calls wait for `release()`.
    func hold() {
        state.withLock { $0.holding = true }
    }

    /// Lets every waiting call go on, and later ones pass.
    func release() {
        let held = state.withLock { state in
            state.holding = false
            defer { state.held = [] }
            return state.held
        }
        for continuation in held { continuation.resume() }
    }

    func tracks(_ page: TrackSearchPage) async throws(APIError) -> [Track] {
        await withCheckedContinuation { continuation in
            let wait = state.withLock { state in
                state.pages.append(page)
                if state.holding { state.held.append(continuation) }
                return state.holding
            }
            if !wait { continuation.resume() }
        }
        if Task.isCancelled { throw .cancelled }
        guard let answer = state.withLock({ $0.answer }) else {
            throw .transport("FakeTrackSearchClient has no answer for \(page)")
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

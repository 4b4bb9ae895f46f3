import Foundation
public import Networking
public import Observation
public import Playback

/// iTunes search with paging: a term loads page one, scrolling near the end loads the next page, and previews
/// play through a `PlaybackController`.
@MainActor @Observable
public final class TrackSearchViewModel {
    /// How the list view must change: reload everything, or insert exactly these rows.
    public enum ListUpdate: Sendable, Equatable {
        case reload
        case insert(Range<Int>)
    }

    /// Where the search is.
    public enum Status: Sendable, Equatable {
        /// No term.
        case idle
        /// Page one is loading.
        case loading
        /// Rows are shown and more pages may come.
        case loaded
        /// A later page is loading.
        case loadingMore
        /// Every page is loaded.
        case complete
        /// Page one had no results.
        case empty
        /// A page failed; `retryTapped()` loads it again and paging goes on.
        case failed(String)
        /// The network is not there; the pending page loads by itself when it returns.
        case offline
    }

    public private(set) var rows: [TrackRow] = []
    public private(set) var status = Status.idle
    /// Called with every list change, in order.
    public var onListUpdate: (@MainActor (ListUpdate) -> Void)?
    /// Plays previews; nil when the app does not play them.
    public let playback: PlaybackController?
    public let pageSize: Int
    /// A row this close to the end makes the next page load.
    public let prefetchDistance: Int

    private let client: any TrackSearchClient
    private let monitor: (any ConnectivityMonitor)?
    private var term = ""
    /// Counts terms, so that pages for an earlier term are dropped.
    private var generation = 0
    private var pageInFlight: Task<Void, Never>?
    private var nextOffset = 0
    private var hasMore = false
    /// The offset of a page that failed or waits for the network.
    private var pendingOffset: Int?

    /// - Parameters:
    ///   - client: fetches pages.
    ///   - monitor: reports connectivity; nil to assume the network is always there.
    ///   - playback: plays previews.
    ///   - pageSize: results per page, 25 as the original app asked for.
    ///   - prefetchDistance: how close to the end a visible row triggers the next page.
    public init(
        client: any TrackSearchClient, monitor: (any ConnectivityMonitor)? = nil, playback: PlaybackController? = nil,
        pageSize: Int = 25, prefetchDistance: Int = 5
    ) {
        self.client = client
        self.monitor = monitor
        self.playback = playback
        self.pageSize = pageSize
        self.prefetchDistance = prefetchDistance
    }

    /// The search text changed: cancels the page in flight, clears the list, and loads page one of the new term;
    /// a blank term sends no request.
    /// - Returns: the page load, for callers that want to wait for it.
    @discardableResult
    public func searchTextChanged(_ text: String) -> Task<Void, Never>? {
        pageInFlight?.cancel()
        pageInFlight = nil
        generation += 1
        term = text.trimmingCharacters(in: .whitespacesAndNewlines)
        rows = []
        nextOffset = 0
        hasMore = false
        pendingOffset = nil
        onListUpdate?(.reload)
        guard !term.isEmpty else {
            status = .idle
            return nil
        }
        return loadPage(offset: 0)
    }

    /// A row became visible: near the end of the list, loads the next page unless one is in flight, failed or
    /// the last one was loaded.
    @discardableResult
    public func rowAppeared(at index: Int) -> Task<Void, Never>? {
        guard index >= rows.count - prefetchDistance, hasMore, pageInFlight == nil, pendingOffset == nil else {
            return nil
        }
        return loadPage(offset: nextOffset)
    }

    /// The user asked to retry the page that failed.
    @discardableResult
    public func retryTapped() -> Task<Void, Never>? {
        guard let pendingOffset, pageInFlight == nil else { return nil }
        return loadPage(offset: pendingOffset)
    }

    /// Follows connectivity for as long as the calling task runs (a view's `.task`): when the network comes back,
    /// the page that waited for it loads by itself.
    public func monitorConnectivity() async {
        guard let monitor else { return }
        for await connectivity in monitor.updates() {
            if connectivity == .satisfied, status == .offline, let pendingOffset, pageInFlight == nil {
                await loadPage(offset: pendingOffset).value
            }
        }
    }

    /// The user tapped a row: plays, pauses, resumes or restarts its preview.
    public func rowTapped(at index: Int) {
        guard rows.indices.contains(index), let url = rows[index].previewURL else { return }
        playback?.select(trackID: rows[index].id, previewURL: url)
    }

    /// The playback status of a row's preview when it is the current one, for its label.
    public func playbackStatus(of row: TrackRow) -> PlayerStatus? {
        playback?.status(of: row.id)
    }

    private func loadPage(offset: Int) -> Task<Void, Never> {
        let current = generation
        let page = TrackSearchPage(term: term, offset: offset, limit: pageSize)
        status = offset == 0 ? .loading : .loadingMore
        let task = Task {
            defer { if current == generation { pageInFlight = nil } }
            if let monitor, await monitor.status != .satisfied {
                guard current == generation else { return }
                pendingOffset = offset
                status = .offline
                return
            }
            do throws(APIError) {
                let tracks = try await client.tracks(page)
                guard current == generation else { return }
                apply(tracks, at: offset)
            } catch {
                guard current == generation, error != .cancelled else { return }
                pendingOffset = offset
                status = error == .offline ? .offline : .failed(error.message)
            }
        }
        pageInFlight = task
        return task
    }

    private func apply(_ tracks: [Track], at offset: Int) {
        let known = Set(rows.map(\.id))
        var seen = Set<String>()
        let fresh = tracks.map(TrackRow.init).filter { !known.contains($0.id) && seen.insert($0.id).inserted }
        if offset == 0 {
            rows = fresh
            onListUpdate?(.reload)
        } else if !fresh.isEmpty {
            let start = rows.count
            rows += fresh
            onListUpdate?(.insert(start..<rows.count))
        }
        nextOffset = offset + tracks.count
        hasMore = tracks.count >= pageSize
        pendingOffset = nil
        status = rows.isEmpty ? .empty : hasMore ? .loaded : .complete
    }
}

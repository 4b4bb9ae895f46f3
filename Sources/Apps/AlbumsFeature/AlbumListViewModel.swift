import Foundation
public import ImageCache
public import Observation

/// The list of top albums: loads the feed through an `AlbumsClient` and exposes one `State`.
@MainActor @Observable
public final class AlbumListViewModel {
    /// What the list screen shows.
    public enum State: Equatable, Sendable {
        case idle
        case loading
        case loaded([AlbumRow])
        /// The feed came back with no albums.
        case empty
        /// A readable message; `retryTapped()` tries again.
        case failed(String)
    }

    public private(set) var state = State.idle
    /// The last feed loaded, for the info screens.
    public private(set) var feed: AlbumFeed?
    private let client: any AlbumsClient
    private let images: (any ImageLoading)?
    /// Counts loads, so that an answer to a superseded load is dropped.
    private var generation = 0

    /// - Parameters:
    ///   - client: fetches the feed.
    ///   - images: loads artwork for the info screens; nil for none.
    public init(client: any AlbumsClient, images: (any ImageLoading)? = nil) {
        self.client = client
        self.images = images
    }

    /// The screen appeared: loads the feed unless it is loaded or loading.
    public func viewAppeared() async {
        guard state == .idle else { return }
        await load()
    }

    /// The user asked to try again after a failure.
    public func retryTapped() async {
        await load()
    }

    /// The user pulled to refresh: loads the feed again, replacing the list.
    public func refreshPulled() async {
        await load()
    }

    /// The info screen's view model for `row`, or nil when the row is not in the current feed.
    public func infoViewModel(for row: AlbumRow) -> AlbumInfoViewModel? {
        guard let feed, let album = feed.albums.first(where: { $0.id == row.id }) else { return nil }
        return AlbumInfoViewModel(album: album, feedCopyright: feed.copyright, images: images)
    }

    private func load() async {
        generation += 1
        let current = generation
        state = .loading
        do {
            let loaded = try await client.topAlbums()
            guard current == generation else { return }
            feed = loaded
            state = loaded.albums.isEmpty ? .empty : .loaded(loaded.albums.map(AlbumRow.init))
        } catch {
            guard current == generation else { return }
            state = .failed(error.message)
        }
    }
}

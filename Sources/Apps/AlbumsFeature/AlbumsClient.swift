public import Foundation
public import Networking

/// Fetches the top-albums feed; the view models see only this.
public protocol AlbumsClient: Sendable {
    /// - Throws: `APIError` when the feed cannot be fetched or read.
    func topAlbums() async throws(APIError) -> AlbumFeed
}

/// The `AlbumsClient` over HTTP.
public struct LiveAlbumsClient: AlbumsClient {
    private let http: any HTTPClient
    private let baseURL: URL?
    private let feed: AlbumsEndpoint

    /// - Parameters:
    ///   - baseURL: the server to ask, such as a stub server's; nil for the feed version's live host.
    ///   - feed: the feed version and its parameters.
    public init(http: any HTTPClient, baseURL: URL? = nil, feed: AlbumsEndpoint = .v1()) {
        self.http = http
        self.baseURL = baseURL
        self.feed = feed
    }

    public func topAlbums() async throws(APIError) -> AlbumFeed {
        try await http.decode(AlbumFeed.self, from: feed.endpoint(baseURL: baseURL))
    }
}

import Foundation
import Networking

/// Fetches the top-albums feed; the view models see only this.
public protocol AlbumsClient: Sendable {
    /// - Throws: `APIError` when the feed cannot be fetched or read.
    func topAlbums() async throws(APIError) -> AlbumFeed
}

/// The `AlbumsClient` over HTTP.
public struct LiveAlbumsClient: AlbumsClient {
    private let http: any HTTPClient
    private let endpoint: AlbumsEndpoint

    public init(http: any HTTPClient, endpoint: AlbumsEndpoint = .v1()) {
        self.http = http
        self.endpoint = endpoint
    }

    public func topAlbums() async throws(APIError) -> AlbumFeed {
        try await http.decode(AlbumFeed.self, from: endpoint.endpoint)
    }
}

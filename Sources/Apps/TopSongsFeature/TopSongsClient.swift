public import Foundation
public import Networking

/// Fetches the top-songs feed; the view model sees only this.
public protocol TopSongsClient: Sendable {
    /// - Throws: `APIError`; malformed XML is `.decoding` with its line and column as the path.
    func topSongs() async throws(APIError) -> [Song]
}

/// The `TopSongsClient` over HTTP, against an injectable base URL.
public struct LiveTopSongsClient: TopSongsClient {
    private let http: any HTTPClient
    private let baseURL: URL
    private let feed: TopSongsEndpoint

    public init(http: any HTTPClient, baseURL: URL = .iTunes, feed: TopSongsEndpoint = TopSongsEndpoint()) {
        self.http = http
        self.baseURL = baseURL
        self.feed = feed
    }

    public func topSongs() async throws(APIError) -> [Song] {
        let data = try await http.data(for: feed.endpoint(baseURL: baseURL))
        do {
            return try TopSongsFeed.songs(from: data)
        } catch {
            throw .decoding(path: "line \(error.line), column \(error.column)", description: error.message)
        }
    }
}

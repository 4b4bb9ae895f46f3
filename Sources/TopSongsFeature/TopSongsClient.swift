import Foundation
import Networking

/// Fetches the top-songs feed; the view model sees only this.
public protocol TopSongsClient: Sendable {
    /// - Throws: `APIError`; malformed XML is `.decoding` with its line and column as the path.
    func topSongs() async throws(APIError) -> [Song]
}

/// The `TopSongsClient` over HTTP: `/us/rss/topsongs/limit=N/xml` against an injectable base URL.
public struct LiveTopSongsClient: TopSongsClient {
    public static let liveBaseURL = URL(string: "https://itunes.apple.com")!

    private let http: any HTTPClient
    private let baseURL: URL
    private let limit: Int

    public init(http: any HTTPClient, baseURL: URL = LiveTopSongsClient.liveBaseURL, limit: Int = 25) {
        self.http = http
        self.baseURL = baseURL
        self.limit = limit
    }

    public var endpoint: Endpoint {
        Endpoint(baseURL: baseURL, path: "/us/rss/topsongs/limit=\(limit)/xml")
    }

    public func topSongs() async throws(APIError) -> [Song] {
        let data = try await http.data(for: endpoint)
        do {
            return try TopSongsFeed.songs(from: data)
        } catch {
            throw .decoding(path: "line \(error.line), column \(error.column)", description: error.message)
        }
    }
}

import Foundation
import Networking

/// One page of an iTunes search.
public struct TrackSearchPage: Sendable, Equatable {
    public static let liveBaseURL = URL(string: "https://itunes.apple.com")!

    public var term: String
    public var offset: Int
    public var limit: Int

    public init(term: String, offset: Int, limit: Int = 25) {
        self.term = term
        self.offset = offset
        self.limit = limit
    }

    /// `/search?term=T&offset=O&limit=L`.
    public func endpoint(baseURL: URL = TrackSearchPage.liveBaseURL) -> Endpoint {
        Endpoint(
            baseURL: baseURL, path: "/search",
            query: [
                .init(name: "term", value: term), .init(name: "offset", value: String(offset)),
                .init(name: "limit", value: String(limit)),
            ])
    }
}

/// Fetches pages of search results; the view model sees only this.
public protocol TrackSearchClient: Sendable {
    func tracks(_ page: TrackSearchPage) async throws(APIError) -> [Track]
}

/// The `TrackSearchClient` over HTTP.
public struct LiveTrackSearchClient: TrackSearchClient {
    private let http: any HTTPClient
    private let baseURL: URL

    public init(http: any HTTPClient, baseURL: URL = TrackSearchPage.liveBaseURL) {
        self.http = http
        self.baseURL = baseURL
    }

    public func tracks(_ page: TrackSearchPage) async throws(APIError) -> [Track] {
        try await http.decode(TrackSearchResponse.self, from: page.endpoint(baseURL: baseURL)).tracks
    }
}

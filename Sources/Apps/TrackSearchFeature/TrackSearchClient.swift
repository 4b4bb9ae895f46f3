public import Foundation
public import Networking

/// Fetches pages of search results; the view model sees only this.
public protocol TrackSearchClient: Sendable {
    func tracks(_ page: TrackSearchPage) async throws(APIError) -> [Track]
}

/// The `TrackSearchClient` over HTTP.
public struct LiveTrackSearchClient: TrackSearchClient {
    private let http: any HTTPClient
    private let baseURL: URL

    public init(http: any HTTPClient, baseURL: URL = .iTunes) {
        self.http = http
        self.baseURL = baseURL
    }

    public func tracks(_ page: TrackSearchPage) async throws(APIError) -> [Track] {
        try await http.decode(TrackSearchResponse.self, from: page.endpoint(baseURL: baseURL)).tracks
    }
}

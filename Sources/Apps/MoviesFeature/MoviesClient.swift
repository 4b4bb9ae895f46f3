public import Foundation
public import Networking

/// Searches movies; the view model sees only this.
public protocol MoviesClient: Sendable {
    /// - Throws: `APIError` when the search fails or its answer cannot be read.
    func search(_ search: MovieSearch) async throws(APIError) -> [Movie]
}

/// The `MoviesClient` over HTTP.
public struct LiveMoviesClient: MoviesClient {
    private let http: any HTTPClient
    private let baseURL: URL

    public init(http: any HTTPClient, baseURL: URL = .iTunes) {
        self.http = http
        self.baseURL = baseURL
    }

    public func search(_ search: MovieSearch) async throws(APIError) -> [Movie] {
        try await http.decode(MovieSearchResponse.self, from: search.endpoint(baseURL: baseURL)).movies
    }
}

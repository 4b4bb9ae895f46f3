import Foundation
import Networking

/// The iTunes Search API for movies, against an injectable base URL.
public struct MovieSearch: Sendable, Equatable {
    public static let liveBaseURL = URL(string: "https://itunes.apple.com")!

    public var term: String
    /// The store country, `au` by default as the original app used.
    public var country: String

    public init(term: String, country: String = "au") {
        self.term = term
        self.country = country
    }

    /// `/search?term=T&country=C&media=movie`.
    public func endpoint(baseURL: URL = MovieSearch.liveBaseURL) -> Endpoint {
        Endpoint(
            baseURL: baseURL, path: "/search",
            query: [
                .init(name: "term", value: term), .init(name: "country", value: country),
                .init(name: "media", value: "movie"),
            ])
    }
}

/// `{"resultCount": N, "results": [...]}`: results without a `trackId` or name are skipped, and each id is kept once.
struct MovieSearchResponse: Decodable {
    let movies: [Movie]

    private enum Keys: String, CodingKey {
        case results
    }

    init(from decoder: any Decoder) throws {
        let results = try decoder.container(keyedBy: Keys.self).decode([Lenient<Movie>].self, forKey: .results)
        var seen = Set<Int>()
        movies = results.compactMap(\.value).filter { seen.insert($0.id).inserted }
    }
}

/// Searches movies; the view model sees only this.
public protocol MoviesClient: Sendable {
    /// - Throws: `APIError` when the search fails or its answer cannot be read.
    func search(_ search: MovieSearch) async throws(APIError) -> [Movie]
}

/// The `MoviesClient` over HTTP.
public struct LiveMoviesClient: MoviesClient {
    private let http: any HTTPClient
    private let baseURL: URL

    public init(http: any HTTPClient, baseURL: URL = MovieSearch.liveBaseURL) {
        self.http = http
        self.baseURL = baseURL
    }

    public func search(_ search: MovieSearch) async throws(APIError) -> [Movie] {
        try await http.decode(MovieSearchResponse.self, from: search.endpoint(baseURL: baseURL)).movies
    }
}

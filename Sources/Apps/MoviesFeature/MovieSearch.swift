public import Foundation
public import Networking

/// The iTunes Search API for movies, against an injectable base URL.
public struct MovieSearch: Sendable, Equatable {
    public var term: String
    /// The store country, `au` by default as the original app used.
    public var country: String

    public init(term: String, country: String = "au") {
        self.term = term
        self.country = country
    }

    /// `/search?term=T&country=C&media=movie`.
    public func endpoint(baseURL: URL = .iTunes) -> Endpoint {
        Endpoint(
            baseURL: baseURL, path: "/search",
            query: [
                .init(name: "term", value: term), .init(name: "country", value: country),
                .init(name: "media", value: "movie"),
            ])
    }
}

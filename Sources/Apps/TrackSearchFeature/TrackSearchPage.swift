public import Foundation
public import Networking

/// One page of an iTunes search.
public struct TrackSearchPage: Sendable, Equatable {
    public var term: String
    public var offset: Int
    public var limit: Int

    public init(term: String, offset: Int, limit: Int = 25) {
        self.term = term
        self.offset = offset
        self.limit = limit
    }

    /// `/search?term=T&offset=O&limit=L`.
    public func endpoint(baseURL: URL = .iTunes) -> Endpoint {
        Endpoint(
            baseURL: baseURL, path: "/search",
            query: [
                .init(name: "term", value: term), .init(name: "offset", value: String(offset)),
                .init(name: "limit", value: String(limit)),
            ])
    }
}

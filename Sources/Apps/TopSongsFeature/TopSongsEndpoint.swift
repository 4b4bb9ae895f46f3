public import Foundation
public import Networking

/// The legacy iTunes top-songs feed, `/us/rss/topsongs/limit=N/xml`.
public struct TopSongsEndpoint: Sendable, Equatable {
    public var limit: Int

    public init(limit: Int = 25) {
        self.limit = limit
    }

    /// The request against `baseURL`.
    public func endpoint(baseURL: URL = .iTunes) -> Endpoint {
        Endpoint(baseURL: baseURL, path: "/us/rss/topsongs/limit=\(limit)/xml")
    }
}

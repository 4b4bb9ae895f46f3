import Foundation
import Networking

/// The two versions of Apple's RSS feed generator, against an injectable base URL.
public enum AlbumsEndpoint: Sendable, Equatable {
    /// `/api/v1/{country}/apple-music/top-albums/all/{limit}/explicit.json`: per-album copyright, `kind: "album"`.
    case v1(baseURL: URL = AlbumsEndpoint.v1Host, country: String = "us", limit: Int = 100)
    /// `/api/v2/{country}/music/most-played/{limit}/albums.json`: feed copyright only, `kind: "albums"`.
    case v2(baseURL: URL = AlbumsEndpoint.v2Host, country: String = "us", limit: Int = 100)

    public static let v1Host = URL(string: "https://rss.itunes.apple.com")!
    public static let v2Host = URL(string: "https://rss.applemarketingtools.com")!

    /// The request as an `Endpoint`.
    public var endpoint: Endpoint {
        switch self {
        case .v1(let baseURL, let country, let limit):
            Endpoint(baseURL: baseURL, path: "/api/v1/\(country)/apple-music/top-albums/all/\(limit)/explicit.json")
        case .v2(let baseURL, let country, let limit):
            Endpoint(baseURL: baseURL, path: "/api/v2/\(country)/music/most-played/\(limit)/albums.json")
        }
    }
}

public import Foundation
public import Networking

/// The two versions of Apple's RSS feed generator; each knows its live host.
public enum AlbumsEndpoint: Sendable, Equatable {
    /// `/api/v1/{country}/apple-music/top-albums/all/{limit}/explicit.json`: per-album copyright, `kind: "album"`.
    case v1(country: String = "us", limit: Int = 100)
    /// `/api/v2/{country}/music/most-played/{limit}/albums.json`: feed copyright only, `kind: "albums"`.
    case v2(country: String = "us", limit: Int = 100)

    public static let v1Host = URL(string: "https://rss.itunes.apple.com")!
    public static let v2Host = URL(string: "https://rss.applemarketingtools.com")!

    /// The host this version is served from live.
    public var liveBaseURL: URL {
        switch self {
        case .v1: Self.v1Host
        case .v2: Self.v2Host
        }
    }

    /// The request against `baseURL`, or against this version's live host when nil.
    public func endpoint(baseURL: URL? = nil) -> Endpoint {
        let base = baseURL ?? liveBaseURL
        return switch self {
        case .v1(let country, let limit):
            Endpoint(baseURL: base, path: "/api/v1/\(country)/apple-music/top-albums/all/\(limit)/explicit.json")
        case .v2(let country, let limit):
            Endpoint(baseURL: base, path: "/api/v2/\(country)/music/most-played/\(limit)/albums.json")
        }
    }
}

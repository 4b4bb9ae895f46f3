public import Foundation
import Networking

/// One result of an iTunes search of any media, decoded leniently: songs, music videos, movies, TV episodes,
/// podcasts, audiobooks (no `kind`, `trackId` or `trackName`) and short films all fit.
public struct Track: Sendable, Equatable, Identifiable {
    /// Stable across pages and searches: the `trackId`, else the `collectionId`, else the row's content.
    public var id: String
    public var wrapperType: String?
    public var kind: String?
    public var trackName: String?
    public var collectionName: String?
    public var artistName: String?
    public var genre: String?
    public var durationMillis: Int?
    /// `longDescription`, else `description` (audiobooks), else `shortDescription`.
    public var description: String?
    public var previewURL: URL?
    public var artworkURL: URL?

    public init(
        id: String, wrapperType: String? = nil, kind: String? = nil, trackName: String? = nil,
        collectionName: String? = nil,
        artistName: String? = nil, genre: String? = nil, durationMillis: Int? = nil, description: String? = nil,
        previewURL: URL? = nil, artworkURL: URL? = nil
    ) {
        self.id = id
        self.wrapperType = wrapperType
        self.kind = kind
        self.trackName = trackName
        self.collectionName = collectionName
        self.artistName = artistName
        self.genre = genre
        self.durationMillis = durationMillis
        self.description = description
        self.previewURL = previewURL
        self.artworkURL = artworkURL
    }
}

extension Track: Decodable {
    private enum CodingKeys: String, CodingKey {
        case wrapperType, kind, trackId, collectionId, trackName, collectionName, artistName, primaryGenreName
        case trackTimeMillis, longDescription, description, shortDescription, previewUrl, artworkUrl100
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        wrapperType = container.lenientString(.wrapperType)
        kind = container.lenientString(.kind)
        trackName = container.lenientString(.trackName)
        collectionName = container.lenientString(.collectionName)
        artistName = container.lenientString(.artistName)
        genre = container.lenientString(.primaryGenreName)
        durationMillis = container.lenientString(.trackTimeMillis).flatMap { Int($0) }
        description =
            container.lenientString(.longDescription) ?? container.lenientString(.description)
            ?? container.lenientString(.shortDescription)
        previewURL = container.webURL(.previewUrl)
        artworkURL = container.webURL(.artworkUrl100)
        if let trackID = container.lenientString(.trackId) {
            id = "track-\(trackID)"
        } else if let collectionID = container.lenientString(.collectionId) {
            id = "collection-\(collectionID)"
        } else {
            let parts = [wrapperType, kind, trackName, collectionName, artistName, previewURL?.absoluteString]
            id = "content-" + parts.map { $0 ?? "" }.joined(separator: "|")
        }
    }
}

/// `{"resultCount": N, "results": [...]}` of the Search API; a result that is not an object is skipped.
struct TrackSearchResponse: Decodable {
    let tracks: [Track]

    private enum Keys: String, CodingKey {
        case results
    }

    init(from decoder: any Decoder) throws {
        tracks = try decoder.container(keyedBy: Keys.self).decode([Lenient<Track>].self, forKey: .results).compactMap(
            \.value)
    }
}

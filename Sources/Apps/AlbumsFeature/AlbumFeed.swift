import Foundation
import Networking

/// The RSS generator's top-albums feed, in either of its two versions.
public struct AlbumFeed: Sendable, Equatable {
    public var title: String?
    /// The feed's copyright, the only one in v2 answers.
    public var copyright: String?
    public var albums: [Album]

    public init(title: String? = nil, copyright: String? = nil, albums: [Album]) {
        self.title = title
        self.copyright = copyright
        self.albums = albums
    }
}

extension AlbumFeed: Decodable {
    private enum Keys: String, CodingKey {
        case feed, title, copyright, results
    }

    /// Decodes `{"feed": {..., "results": [...]}}`. A result that is not an object is skipped; an album without
    /// an id gets `position-N`; a missing `feed` or a `results` that is not an array fail.
    public init(from decoder: any Decoder) throws {
        let root = try decoder.container(keyedBy: Keys.self)
        let feed = try root.nestedContainer(keyedBy: Keys.self, forKey: .feed)
        title = feed.lenientString(.title)
        copyright = feed.lenientString(.copyright)
        let results = try feed.decode([Lenient<Album>].self, forKey: .results)
        albums = results.enumerated().compactMap { position, result in
            guard var album = result.value else { return nil }
            if album.id.isEmpty { album.id = "position-\(position)" }
            return album
        }
    }
}

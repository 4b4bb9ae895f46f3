public import Foundation
import Networking

/// One album of the top-albums feed, decoded leniently: every field may be missing or odd.
public struct Album: Sendable, Equatable, Identifiable {
    /// The store's id (a string in both feed versions; numbers are accepted too).
    public var id: String
    public var name: String?
    public var artistName: String?
    public var artworkURL: URL?
    /// As sent, such as `2020-04-17`.
    public var releaseDate: String?
    /// `album` in v1, `albums` in v2.
    public var kind: String?
    /// The album's own copyright (v1 only).
    public var copyright: String?
    public var contentAdvisory: ContentAdvisory?
    public var genres: [Genre]
    /// The album's page in the store.
    public var url: URL?

    public init(
        id: String, name: String? = nil, artistName: String? = nil, artworkURL: URL? = nil, releaseDate: String? = nil,
        kind: String? = nil, copyright: String? = nil, contentAdvisory: ContentAdvisory? = nil, genres: [Genre] = [],
        url: URL? = nil
    ) {
        self.id = id
        self.name = name
        self.artistName = artistName
        self.artworkURL = artworkURL
        self.releaseDate = releaseDate
        self.kind = kind
        self.copyright = copyright
        self.contentAdvisory = contentAdvisory
        self.genres = genres
        self.url = url
    }

    /// A genre as the feed lists it.
    public struct Genre: Sendable, Equatable, Decodable {
        public var id: String?
        public var name: String

        public init(id: String? = nil, name: String) {
            self.id = id
            self.name = name
        }

        private enum CodingKeys: String, CodingKey {
            case id = "genreId"
            case name
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = container.lenientString(.id)
            guard let name = container.lenientString(.name), !name.isEmpty else {
                throw DecodingError.keyNotFound(
                    CodingKeys.name, .init(codingPath: decoder.codingPath, debugDescription: "genre without a name"))
            }
            self.name = name
        }
    }

    /// The feed's `contentAdvisoryRating`, including the v2 feed's spelling `Explict`.
    public enum ContentAdvisory: Sendable, Equatable {
        case explicit
        case clean
        case other(String)

        init(_ raw: String) {
            switch raw.lowercased() {
            case "explicit", "explict": self = .explicit
            case "clean": self = .clean
            default: self = .other(raw)
            }
        }
    }
}

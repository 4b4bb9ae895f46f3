import Foundation
import Networking

extension Album: Decodable {
    private enum CodingKeys: String, CodingKey {
        case id, name, artistName, artworkUrl100, releaseDate, kind, copyright, contentAdvisoryRating, genres, url
    }

    /// Decodes whatever fields are usable; only a result that is not an object fails.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = container.lenientString(.id) ?? ""
        name = container.lenientString(.name)
        artistName = container.lenientString(.artistName)
        artworkURL = container.webURL(.artworkUrl100)
        releaseDate = container.lenientString(.releaseDate)
        kind = container.lenientString(.kind)
        copyright = container.lenientString(.copyright)
        contentAdvisory = container.lenientString(.contentAdvisoryRating).map(ContentAdvisory.init)
        genres = (try? container.decodeIfPresent([Lenient<Genre>].self, forKey: .genres))?.compactMap(\.value) ?? []
        url = container.webURL(.url)
    }
}

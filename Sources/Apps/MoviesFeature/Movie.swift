public import Foundation
import Networking

/// One movie of a search: the fields the list and the details screen show.
public struct Movie: Sendable, Equatable, Identifiable {
    /// The iTunes `trackId`: stable across searches.
    public var id: Int
    public var name: String
    public var trackPrice: Double?
    /// ISO 4217, such as `AUD`.
    public var currency: String?
    public var previewURL: URL?
    public var artworkURL: URL?
    public var genre: String?
    public var longDescription: String?

    public init(
        id: Int, name: String, trackPrice: Double? = nil, currency: String? = nil, previewURL: URL? = nil,
        artworkURL: URL? = nil, genre: String? = nil, longDescription: String? = nil
    ) {
        self.id = id
        self.name = name
        self.trackPrice = trackPrice
        self.currency = currency
        self.previewURL = previewURL
        self.artworkURL = artworkURL
        self.genre = genre
        self.longDescription = longDescription
    }

    /// The price with its currency for `locale`, such as "A$4.99"; nil when the answer had no price or currency.
    public func priceText(locale: Locale = .current) -> String? {
        guard let trackPrice, let currency else { return nil }
        return Decimal(trackPrice).formatted(.currency(code: currency).locale(locale))
    }
}

extension Movie: Decodable {
    private enum CodingKeys: String, CodingKey {
        case trackId, trackName, trackPrice, currency, previewUrl, artworkUrl100, primaryGenreName, longDescription
    }

    /// Decodes one search result; only `trackId` and `trackName` are required.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .trackId)
        guard let name = container.lenientString(.trackName) else {
            throw DecodingError.keyNotFound(
                CodingKeys.trackName, .init(codingPath: decoder.codingPath, debugDescription: "result without a name"))
        }
        self.name = name
        trackPrice = try? container.decodeIfPresent(Double.self, forKey: .trackPrice)
        currency = container.lenientString(.currency)
        previewURL = container.webURL(.previewUrl)
        artworkURL = container.webURL(.artworkUrl100)
        genre = container.lenientString(.primaryGenreName)
        longDescription = container.lenientString(.longDescription)
    }
}

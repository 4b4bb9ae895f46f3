import Foundation

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

/// A value that decodes to nil instead of failing, so one bad element does not lose its siblings.
struct Lenient<Value: Decodable>: Decodable {
    let value: Value?

    init(from decoder: any Decoder) throws {
        value = try? Value(from: decoder)
    }
}

extension KeyedDecodingContainer {
    /// A string, or a number written as a string; nil when missing, null, blank or of another type.
    func lenientString(_ key: Key) -> String? {
        if let text = try? decodeIfPresent(String.self, forKey: key) {
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            return trimmed.isEmpty ? nil : trimmed
        }
        if let number = try? decodeIfPresent(Int.self, forKey: key) { return String(number) }
        return nil
    }

    /// An http or https URL with a host; nil otherwise.
    func webURL(_ key: Key) -> URL? {
        guard let text = lenientString(key), let url = URL(string: text),
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host?.isEmpty == false
        else { return nil }
        return url
    }
}

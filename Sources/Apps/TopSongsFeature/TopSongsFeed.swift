public import Foundation
import Networking
public import XMLPath

/// Reads the legacy iTunes top-songs Atom feed (elements in the `im:` namespace) with an `XMLPathParser`.
public enum TopSongsFeed {
    /// The parser with the feed's paths registered.
    public static let parser: XMLPathParser = {
        var parser = XMLPathParser(recordPath: "feed.entry")
        parser.text("feed.entry.im:name", as: "name")
        parser.text("feed.entry.im:artist", as: "artist")
        parser.text("feed.entry.title", as: "title")
        parser.element("feed.entry.id@im:id", as: "id")
        parser.element("feed.entry.link@rel,href", as: "link")
        parser.element("feed.entry.im:image@height", as: "image")
        parser.element("feed.entry.im:price@amount,currency", as: "price")
        parser.element("feed.entry.im:releaseDate@label", as: "releaseDate")
        parser.element("feed.entry.category@term", as: "genre")
        return parser
    }()

    /// The songs of a feed, in feed order.
    /// - Throws: `XMLPathError` for malformed XML (with line and column).
    public static func songs(from data: Data) throws(XMLPathError) -> [Song] {
        try parser.records(data).enumerated().map { position, record in song(record, position: position) }
    }

    static func song(_ record: XMLRecord, position: Int) -> Song {
        func nonEmpty(_ text: String?) -> String? { text.flatMap { $0.isBlank ? nil : $0 } }
        let links = record.elements["link"] ?? []
        let page = links.first { $0.attributes["rel"] == "alternate" }?.attributes["href"]
        let preview = links.first { $0.attributes["im:assetType"] == "preview" }?.attributes["href"]
        var images: [Int: URL] = [:]
        for image in record.elements["image"] ?? [] {
            if let height = image.attributes["height"].flatMap({ Int($0) }), let url = webURL(image.text) {
                images[height] = url
            }
        }
        let price = record.elements["price"]?.first
        let id = nonEmpty(record.elements["id"]?.first?.attributes["im:id"]) ?? "position-\(position)"
        return Song(
            id: id, name: nonEmpty(record.text("name")), artist: nonEmpty(record.text("artist")),
            title: nonEmpty(record.text("title")), pageURL: webURL(page), images: images, previewURL: webURL(preview),
            price: price?.attributes["amount"].flatMap {
                Decimal(string: $0, locale: Locale(identifier: "en_US_POSIX"))
            },
            currency: nonEmpty(price?.attributes["currency"]), priceLabel: nonEmpty(price?.text),
            releaseDate: nonEmpty(record.elements["releaseDate"]?.first?.attributes["label"]),
            genre: nonEmpty(
                record.elements["genre"]?.first?.attributes["label"]
                    ?? record.elements["genre"]?.first?.attributes["term"]))
    }

    private static func webURL(_ text: String?) -> URL? {
        guard let text, let url = URL(string: text), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https",
            url.host?.isEmpty == false
        else { return nil }
        return url
    }
}

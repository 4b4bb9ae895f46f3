public import Foundation

/// One entry of the top-songs feed; every field may be missing, and an entry shows with what it has.
public struct Song: Sendable, Equatable, Identifiable {
    /// The store id (`id@im:id`), else the entry's position.
    public var id: String
    public var name: String?
    public var artist: String?
    /// The entry title, as the feed writes it: "Name - Artist".
    public var title: String?
    public var pageURL: URL?
    /// Artwork by its height in points, as the feed lists the sizes.
    public var images: [Int: URL]
    public var previewURL: URL?
    public var price: Decimal?
    public var currency: String?
    /// The price as the feed writes it for display, such as "$0.69".
    public var priceLabel: String?
    /// As the feed writes it for display, such as "August 21, 2020".
    public var releaseDate: String?
    public var genre: String?

    public init(
        id: String, name: String? = nil, artist: String? = nil, title: String? = nil, pageURL: URL? = nil,
        images: [Int: URL] = [:], previewURL: URL? = nil, price: Decimal? = nil, currency: String? = nil,
        priceLabel: String? = nil, releaseDate: String? = nil, genre: String? = nil
    ) {
        self.id = id
        self.name = name
        self.artist = artist
        self.title = title
        self.pageURL = pageURL
        self.images = images
        self.previewURL = previewURL
        self.price = price
        self.currency = currency
        self.priceLabel = priceLabel
        self.releaseDate = releaseDate
        self.genre = genre
    }

    /// The largest artwork, or the smallest one at least `minimumHeight` tall when one is asked for.
    public func imageURL(minimumHeight: Int? = nil) -> URL? {
        let heights = images.keys.sorted()
        if let minimumHeight, let fitting = heights.first(where: { $0 >= minimumHeight }) { return images[fitting] }
        return heights.last.flatMap { images[$0] }
    }

    /// The name, else the title's part before " - ", else "Untitled".
    public var displayName: String {
        name ?? title.map { String($0.components(separatedBy: " - ").first ?? $0) } ?? "Untitled"
    }
}

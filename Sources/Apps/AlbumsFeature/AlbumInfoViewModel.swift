public import Foundation
public import ImageCache
import Networking
public import Observation

/// The info screen of one album: display-ready fields and its artwork.
@MainActor @Observable
public final class AlbumInfoViewModel {
    /// The artwork's loading state.
    public enum Artwork: Equatable, Sendable {
        case none
        case loading
        case loaded(Data)
        case failed(String)
    }

    public let title: String
    public let artist: String
    /// Genre names; the catch-all "Music" is left out when a more specific genre is there.
    public let genres: [String]
    /// The release date for display, such as "Apr 17, 2020"; nil when missing or not a date.
    public let releaseDate: String?
    /// The album's copyright, else the feed's; nil when neither is given.
    public let copyright: String?
    /// The album's page in the store; nil when the feed's link is missing or invalid.
    public let storeURL: URL?
    public let isExplicit: Bool
    public private(set) var artwork = Artwork.none
    private let artworkURL: URL?
    private let images: (any ImageLoading)?

    /// - Parameters:
    ///   - album: the album to show.
    ///   - feedCopyright: the feed's copyright, shown when the album has none.
    ///   - images: loads the artwork; nil for none.
    ///   - locale: formats the release date.
    public init(album: Album, feedCopyright: String?, images: (any ImageLoading)? = nil, locale: Locale = .current) {
        let row = AlbumRow(album)
        title = row.title
        artist = row.artist
        genres = Self.displayGenres(album.genres)
        releaseDate = Self.displayDate(album.releaseDate, locale: locale)
        copyright = album.copyright ?? feedCopyright.flatMap { $0.isBlank ? nil : $0 }
        storeURL = album.url
        isExplicit = album.contentAdvisory == .explicit
        artworkURL = album.artworkURL
        self.images = images
    }

    /// The screen appeared: loads the artwork once.
    public func viewAppeared() async {
        guard artwork == .none || isFailed, let artworkURL, let images else { return }
        artwork = .loading
        do {
            artwork = .loaded(try await images.image(for: artworkURL))
        } catch {
            artwork = .failed(error == .cancelled ? "Cancelled" : "The artwork couldn't be loaded.")
        }
    }

    private var isFailed: Bool {
        if case .failed = artwork { return true }
        return false
    }

    static func displayGenres(_ genres: [Album.Genre]) -> [String] {
        var names: [String] = []
        for genre in genres where !names.contains(genre.name) { names.append(genre.name) }
        let specific = names.filter { $0 != "Music" }
        return specific.isEmpty ? names : specific
    }

    /// `yyyy-MM-dd` (as both feed versions send it) formatted in the medium style of `locale`.
    static func displayDate(_ text: String?, locale: Locale) -> String? {
        guard let text else { return nil }
        let parser = DateFormatter()
        parser.locale = Locale(identifier: "en_US_POSIX")
        parser.timeZone = TimeZone(identifier: "UTC")
        parser.dateFormat = "yyyy-MM-dd"
        parser.isLenient = false
        guard let date = parser.date(from: text) else { return nil }
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateStyle = .medium
        formatter.timeStyle = .none
        return formatter.string(from: date)
    }
}

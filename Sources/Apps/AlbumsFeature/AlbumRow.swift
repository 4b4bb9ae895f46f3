public import Foundation

/// What the album list shows for one album.
public struct AlbumRow: Sendable, Equatable, Identifiable {
    public var id: String
    /// The album's name, or "Untitled album".
    public var title: String
    /// The artist's name, or "Unknown artist".
    public var artist: String
    public var thumbnailURL: URL?

    public init(id: String, title: String, artist: String, thumbnailURL: URL?) {
        self.id = id
        self.title = title
        self.artist = artist
        self.thumbnailURL = thumbnailURL
    }

    public init(_ album: Album) {
        self.init(
            id: album.id, title: album.name ?? Self.untitled, artist: album.artistName ?? Self.unknownArtist,
            thumbnailURL: album.artworkURL)
    }

    public static let untitled = "Untitled album"
    public static let unknownArtist = "Unknown artist"
}

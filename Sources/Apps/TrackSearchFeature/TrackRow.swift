public import Foundation
import Networking

/// What the results list shows for one track.
public struct TrackRow: Sendable, Equatable, Identifiable {
    public var id: String
    /// The track's name, else its collection's, else "Untitled".
    public var title: String
    public var artist: String?
    /// Such as "Song", "Audiobook", "TV Episode".
    public var kindLabel: String
    /// `m:ss` or `h:mm:ss`; nil when the answer has no duration.
    public var duration: String?
    /// Plain text (Apple's HTML tags removed, `<br>` as line breaks, entities decoded); nil when the answer has
    /// none or it is blank.
    public var description: String?
    public var previewURL: URL?
    public var artworkURL: URL?

    public init(_ track: Track) {
        id = track.id
        title = track.trackName ?? track.collectionName ?? "Untitled"
        artist = track.artistName
        kindLabel = Self.kindLabel(kind: track.kind, wrapperType: track.wrapperType, genre: track.genre)
        duration = track.durationMillis.flatMap { Self.duration(milliseconds: $0) }
        description = track.description.map(HTMLText.readable).flatMap { $0.isBlank ? nil : $0 }
        previewURL = track.previewURL
        artworkURL = track.artworkURL
    }

    static func kindLabel(kind: String?, wrapperType: String?, genre: String?) -> String {
        if wrapperType == "audiobook" { return "Audiobook" }
        switch kind {
        case "song": return "Song"
        case "music-video": return "Music Video"
        case "feature-movie": return genre == "Short Films" ? "Short Film" : "Movie"
        case "short-film": return "Short Film"
        case "tv-episode": return "TV Episode"
        case "podcast", "podcast-episode": return "Podcast"
        case "ebook", "book": return "Book"
        case let other?: return other.split(separator: "-").map { $0.capitalized }.joined(separator: " ")
        case nil: return wrapperType.map { $0.capitalized } ?? "Item"
        }
    }

    /// `3:05` under an hour, `1:02:03` from an hour; nil for negative values.
    static func duration(milliseconds: Int) -> String? {
        guard milliseconds >= 0 else { return nil }
        let total = milliseconds / 1000
        let (hours, minutes, seconds) = (total / 3600, total / 60 % 60, total % 60)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(seconds))" : "\(minutes):\(two(seconds))"
    }
}

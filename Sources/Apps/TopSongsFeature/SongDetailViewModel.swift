public import Foundation
public import Observation
public import Playback

/// One song's detail screen, with play and pause of its preview.
@MainActor @Observable
public final class SongDetailViewModel {
    public let song: Song
    private let playback: PlaybackController

    public init(song: Song, playback: PlaybackController) {
        self.song = song
        self.playback = playback
    }

    public var name: String { song.displayName }
    public var artist: String { song.artist ?? "Unknown artist" }
    /// The entry title, "Name - Artist".
    public var title: String { song.title ?? "\(name) - \(artist)" }
    /// The largest artwork.
    public var imageURL: URL? { song.imageURL() }
    public var pageURL: URL? { song.pageURL }
    public var releaseDate: String? { song.releaseDate }
    public var genre: String? { song.genre }

    /// The price as the feed labels it, else formatted from amount and currency; nil when neither is there.
    public func priceText(locale: Locale = .current) -> String? {
        if let label = song.priceLabel { return label }
        guard let price = song.price, let currency = song.currency else { return nil }
        return price.formatted(.currency(code: currency).locale(locale))
    }

    /// Whether the song has a preview to play.
    public var canPlay: Bool { song.previewURL != nil }

    /// The preview's status when it is the current track; nil otherwise.
    public var playbackStatus: PlayerStatus? { playback.status(of: song.id) }

    /// The user tapped play or pause.
    public func playTapped() {
        guard let url = song.previewURL else { return }
        playback.select(trackID: song.id, previewURL: url)
    }
}

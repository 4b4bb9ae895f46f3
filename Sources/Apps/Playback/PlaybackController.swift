public import Foundation
public import Observation

/// The preview player's state machine: one current track, its `PlayerStatus`, and what selecting a track does.
@MainActor @Observable
public final class PlaybackController {
    /// The id of the current track, nil before anything was selected.
    public private(set) var currentTrackID: String?
    public private(set) var status = PlayerStatus.initial
    private let player: any MediaPlayer
    private var item: PlaybackItem?
    private var nextItemID = 0

    public init(player: any MediaPlayer) {
        self.player = player
        player.onEvent = { [weak self] event in self?.handle(event) }
    }

    /// The status of `trackID` if it is the current track, for a per-row label; nil for any other track.
    public func status(of trackID: String) -> PlayerStatus? {
        trackID == currentTrackID ? status : nil
    }

    /// The user selected a track: the playing one pauses, the paused one resumes, the finished one starts over,
    /// and any other track stops the current one and starts from `initial` through `buffering`.
    public func select(trackID: String, previewURL: URL) {
        guard trackID == currentTrackID else {
            start(trackID: trackID, url: previewURL)
            return
        }
        switch status {
        case .playing, .buffering:
            player.pause()
            status = .paused
        case .paused:
            player.resume()
            status = .playing
        case .finished:
            player.seekToStart()
            player.resume()
            status = .buffering
        case .initial:
            start(trackID: trackID, url: previewURL)
        }
    }

    /// Stops whatever plays; the current track stays selected, paused.
    public func stop() {
        guard currentTrackID != nil, status == .playing || status == .buffering else { return }
        player.pause()
        status = .paused
    }

    private func start(trackID: String, url: URL) {
        if currentTrackID != nil, status == .playing || status == .buffering {
            player.pause()
        }
        nextItemID += 1
        let item = PlaybackItem(id: nextItemID, url: url)
        self.item = item
        currentTrackID = trackID
        status = .initial
        player.play(item)
        status = .buffering
    }

    /// Applies a player event; events about an earlier item, or that make no sense in the current status, are
    /// ignored.
    func handle(_ event: PlayerEvent) {
        guard event.item == item?.id else { return }
        switch (event.kind, status) {
        case (.started, .buffering), (.likelyToKeepUp, .buffering):
            status = .playing
        case (.rateChanged(let rate), .buffering) where rate > 0,
            (.rateChanged(let rate), .paused) where rate > 0:
            status = .playing
        case (.rateChanged(let rate), .playing) where rate == 0:
            status = .paused
        case (.stalled, .playing):
            status = .buffering
        case (.reachedEnd, .playing), (.reachedEnd, .buffering):
            status = .finished
        default:
            break
        }
    }
}

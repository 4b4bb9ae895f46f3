public import Foundation

/// What `PlaybackController` drives: AVPlayer in an app, a fake in tests.
@MainActor
public protocol MediaPlayer: AnyObject {
    /// Called with every event the player reports, tagged with the item it is about.
    var onEvent: (@MainActor (PlayerEvent) -> Void)? { get set }
    /// Replaces the current item with `item` and starts it.
    func play(_ item: PlaybackItem)
    func pause()
    func resume()
    func seekToStart()
}

/// One play of one preview: a fresh id every time `play` is called, so that late events of an earlier play
/// can be told apart and ignored.
public struct PlaybackItem: Sendable, Equatable {
    public let id: Int
    public let url: URL

    public init(id: Int, url: URL) {
        self.id = id
        self.url = url
    }
}

/// What a player reports about an item.
public struct PlayerEvent: Sendable, Equatable {
    /// The `PlaybackItem.id` this event is about.
    public var item: Int
    public var kind: Kind

    public init(item: Int, _ kind: Kind) {
        self.item = item
        self.kind = kind
    }

    public enum Kind: Sendable, Equatable {
        case started
        /// 0 is paused; above 0 is playing.
        case rateChanged(Float)
        /// Playback stopped to wait for data.
        case stalled
        /// Enough data arrived to play on.
        case likelyToKeepUp
        case reachedEnd
    }
}

/// Where the current track is.
public enum PlayerStatus: Sendable, Equatable {
    case initial
    case buffering
    case playing
    case paused
    case finished
}

public import Foundation
public import Playback

/// A `MediaPlayer` for tests: records every call, and lets the test send the player's events.
@MainActor
public final class FakeMediaPlayer: MediaPlayer {
    /// One call the controller made.
    public enum Call: Equatable, Sendable {
        case play(PlaybackItem)
        case pause
        case resume
        case seekToStart
    }

    public var onEvent: (@MainActor (PlayerEvent) -> Void)?
    public private(set) var calls: [Call] = []
    /// Runs inside `play`, before it returns: lets a test see the controller's status at that moment.
    public var duringPlay: (() -> Void)?

    public init() {}

    /// The URLs asked to play, in order.
    public var played: [URL] {
        calls.compactMap { if case .play(let item) = $0 { item.url } else { nil } }
    }

    public func play(_ item: PlaybackItem) {
        calls.append(.play(item))
        duringPlay?()
    }

    public func pause() { calls.append(.pause) }
    public func resume() { calls.append(.resume) }
    public func seekToStart() { calls.append(.seekToStart) }

    /// Sends an event about the item with id `item`, as the real player would.
    public func send(_ item: Int, _ kind: PlayerEvent.Kind) {
        onEvent?(PlayerEvent(item: item, kind))
    }
}

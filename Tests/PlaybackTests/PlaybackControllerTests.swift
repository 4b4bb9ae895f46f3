import Foundation
import PlaybackTestSupport
import TestTurns
import Testing

@testable import Playback

@Suite(.takesTurns, .timeLimit(.minutes(1)))
@MainActor
struct PlaybackControllerTests {
    private let a = URL(string: "https://audio.test/a.m4a")!
    private let b = URL(string: "https://audio.test/b.m4a")!

    @Test func selectingATrack_startsItFromInitialThroughBuffering() {
        let player = FakeMediaPlayer()
        let controller = PlaybackController(player: player)
        var statusDuringPlay: PlayerStatus?
        player.duringPlay = { statusDuringPlay = controller.status }
        controller.select(trackID: "a", previewURL: a)
        #expect(statusDuringPlay == .initial)
        #expect(controller.status == .buffering)
        #expect(player.calls == [.play(PlaybackItem(id: 1, url: a))])
        player.send(1, .likelyToKeepUp)
        #expect(controller.status == .playing)
    }

    @Test func selectingThePlayingTrack_pausesThenResumes() {
        let player = FakeMediaPlayer()
        let controller = PlaybackController(player: player)
        controller.select(trackID: "a", previewURL: a)
        player.send(1, .started)
        controller.select(trackID: "a", previewURL: a)
        #expect(controller.status == .paused)
        controller.select(trackID: "a", previewURL: a)
        #expect(controller.status == .playing)
        #expect(player.calls.dropFirst() == [.pause, .resume])
    }

    @Test func selectingAFinishedTrack_restartsItFromTheBeginning() {
        let player = FakeMediaPlayer()
        let controller = PlaybackController(player: player)
        controller.select(trackID: "a", previewURL: a)
        player.send(1, .started)
        player.send(1, .reachedEnd)
        #expect(controller.status == .finished)
        controller.select(trackID: "a", previewURL: a)
        #expect(player.calls.suffix(2) == [.seekToStart, .resume])
        #expect(controller.status == .buffering)
        player.send(1, .rateChanged(1))
        #expect(controller.status == .playing)
    }

    @Test func selectingAnotherTrack_stopsTheCurrentAndStartsTheNew() {
        let player = FakeMediaPlayer()
        let controller = PlaybackController(player: player)
        controller.select(trackID: "a", previewURL: a)
        player.send(1, .started)
        controller.select(trackID: "b", previewURL: b)
        #expect(player.calls == [.play(PlaybackItem(id: 1, url: a)), .pause, .play(PlaybackItem(id: 2, url: b))])
        #expect(controller.currentTrackID == "b")
        #expect(controller.status == .buffering)
        #expect(controller.status(of: "b") == .buffering)
        #expect(controller.status(of: "a") == nil)
    }

    @Test func lateEventsOfThePreviousTrack_areIgnored() {
        let player = FakeMediaPlayer()
        let controller = PlaybackController(player: player)
        controller.select(trackID: "a", previewURL: a)
        controller.select(trackID: "b", previewURL: b)
        player.send(1, .started)
        player.send(1, .reachedEnd)
        player.send(1, .rateChanged(0))
        #expect(controller.status == .buffering)
        player.send(2, .started)
        player.send(1, .stalled)
        #expect(controller.status == .playing)
    }

    @Test(arguments: [
        ([PlayerEvent.Kind.started, .stalled], PlayerStatus.buffering),
        ([.started, .stalled, .likelyToKeepUp], .playing),
        ([.started, .rateChanged(0)], .paused),
        ([.started, .rateChanged(0), .rateChanged(1)], .playing),
        ([.started, .rateChanged(0), .rateChanged(0)], .paused),
        ([.started, .reachedEnd, .rateChanged(0)], .finished),
        ([.started, .reachedEnd, .stalled], .finished),
        ([.rateChanged(0)], .buffering),
        ([.reachedEnd], .finished),
    ])
    func events_driveTheStatus(_ events: [PlayerEvent.Kind], expected: PlayerStatus) {
        let player = FakeMediaPlayer()
        let controller = PlaybackController(player: player)
        controller.select(trackID: "a", previewURL: a)
        for event in events { player.send(1, event) }
        #expect(controller.status == expected)
    }

    @Test func selectingWhileBuffering_pauses() {
        let player = FakeMediaPlayer()
        let controller = PlaybackController(player: player)
        controller.select(trackID: "a", previewURL: a)
        controller.select(trackID: "a", previewURL: a)
        #expect(controller.status == .paused)
        player.send(1, .started)
        #expect(controller.status == .paused, "a late start does not undo the user's pause")
    }

    @Test func stop_pausesOnlyWhatPlays() {
        let player = FakeMediaPlayer()
        let controller = PlaybackController(player: player)
        controller.stop()
        #expect(player.calls.isEmpty)
        controller.select(trackID: "a", previewURL: a)
        player.send(1, .started)
        controller.stop()
        controller.stop()
        #expect(player.calls.dropFirst() == [.pause])
        #expect(controller.status == .paused)
    }
}

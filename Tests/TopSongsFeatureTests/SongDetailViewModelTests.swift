import Foundation
import Playback
import PlaybackTestSupport
import TestTurns
import Testing

@testable import TopSongsFeature

@Suite(.takesTurns, .timeLimit(.minutes(1)))
@MainActor
struct SongDetailViewModelTests {
    private static let song = Song(
        id: "42", name: "Golden Hour", artist: "Mira Solano", title: "Golden Hour - Mira Solano",
        pageURL: URL(string: "https://music.apple.com/x"),
        images: [55: URL(string: "https://img/55")!, 170: URL(string: "https://img/170")!],
        previewURL: URL(string: "https://audio/42.m4a"), price: Decimal(string: "0.69"), currency: "USD",
        priceLabel: "$0.69",
        releaseDate: "July 1, 2020", genre: "Pop")

    @Test func fields_areReadyForDisplay() {
        let model = SongDetailViewModel(song: Self.song, playback: PlaybackController(player: FakeMediaPlayer()))
        #expect(model.name == "Golden Hour")
        #expect(model.artist == "Mira Solano")
        #expect(model.title == "Golden Hour - Mira Solano")
        #expect(model.imageURL?.absoluteString == "https://img/170")
        #expect(model.priceText() == "$0.69")
        #expect(model.releaseDate == "July 1, 2020")
        #expect(model.genre == "Pop")
        #expect(model.pageURL != nil)
        #expect(model.canPlay)
    }

    @Test func missingFields_fallBack() {
        var song = Song(id: "1", price: Decimal(string: "1.29"), currency: "EUR")
        let model = SongDetailViewModel(song: song, playback: PlaybackController(player: FakeMediaPlayer()))
        #expect(model.name == "Untitled")
        #expect(model.artist == "Unknown artist")
        #expect(model.title == "Untitled - Unknown artist")
        #expect(model.priceText(locale: Locale(identifier: "en_US")) == "€1.29")
        #expect(!model.canPlay)
        song.currency = nil
        #expect(
            SongDetailViewModel(song: song, playback: PlaybackController(player: FakeMediaPlayer())).priceText()
                == nil)
    }

    @Test func playTapped_playsThenPausesThePreview() {
        let player = FakeMediaPlayer()
        let playback = PlaybackController(player: player)
        let model = SongDetailViewModel(song: Self.song, playback: playback)
        #expect(model.playbackStatus == nil)
        model.playTapped()
        #expect(model.playbackStatus == .buffering)
        player.send(1, .started)
        #expect(model.playbackStatus == .playing)
        model.playTapped()
        #expect(model.playbackStatus == .paused)
        #expect(player.calls == [.play(PlaybackItem(id: 1, url: URL(string: "https://audio/42.m4a")!)), .pause])
    }

    @Test func playTapped_withoutAPreviewDoesNothing() {
        let player = FakeMediaPlayer()
        let model = SongDetailViewModel(song: Song(id: "1"), playback: PlaybackController(player: player))
        model.playTapped()
        #expect(player.calls.isEmpty)
    }
}

import Foundation
import ImageCache
import Locking
import Networking
import TestTurns
import Testing

@testable import AlbumsFeature

@Suite(.takesTurns, .timeLimit(.minutes(1)))
@MainActor
struct AlbumInfoViewModelTests {
    private static let album = Album(
        id: "1", name: "Harbor Lights", artistName: "The Night Ferries", artworkURL: URL(string: "https://a/1.png"),
        releaseDate: "2020-04-17", copyright: "℗ 2020 Ferries", contentAdvisory: .explicit,
        genres: [
            .init(id: "20", name: "Alternative"), .init(id: "34", name: "Music"), .init(id: "20", name: "Alternative"),
        ],
        url: URL(string: "https://music.apple.com/us/album/harbor-lights/1"))

    private let english = Locale(identifier: "en_US_POSIX")

    @Test func fields_areReadyForDisplay() {
        let model = AlbumInfoViewModel(album: Self.album, feedCopyright: "Feed ©", locale: english)
        #expect(model.title == "Harbor Lights")
        #expect(model.artist == "The Night Ferries")
        #expect(model.genres == ["Alternative"])
        #expect(model.releaseDate == "Apr 17, 2020")
        #expect(model.copyright == "℗ 2020 Ferries")
        #expect(model.storeURL?.absoluteString == "https://music.apple.com/us/album/harbor-lights/1")
        #expect(model.isExplicit)
    }

    @Test func missingFields_fallBack() {
        let bare = Album(id: "2", genres: [.init(name: "Music")])
        let model = AlbumInfoViewModel(album: bare, feedCopyright: "Feed ©", locale: english)
        #expect(model.title == "Untitled album")
        #expect(model.artist == "Unknown artist")
        #expect(model.genres == ["Music"], "Music stays when it is the only genre")
        #expect(model.releaseDate == nil)
        #expect(model.copyright == "Feed ©")
        #expect(model.storeURL == nil)
        #expect(!model.isExplicit)
        #expect(AlbumInfoViewModel(album: bare, feedCopyright: "", locale: english).copyright == nil)
    }

    @Test(
        arguments: [
            ("2020-04-17", "Apr 17, 2020"), ("2020-02-30", nil), ("2020-13-01", nil), ("17/04/2020", nil), ("", nil),
            ("1999-12-31", "Dec 31, 1999"),
        ] as [(String, String?)])
    func releaseDate_isFormattedOrNil(_ raw: String, expected: String?) {
        #expect(AlbumInfoViewModel.displayDate(raw, locale: english) == expected)
    }

    @Test func releaseDate_followsTheLocale() {
        #expect(AlbumInfoViewModel.displayDate("2020-04-17", locale: Locale(identifier: "de_DE")) == "17.04.2020")
    }

    @Test func viewAppeared_loadsTheArtwork() async {
        let images = FakeImages(answers: [URL(string: "https://a/1.png")!: .success(Data([1, 2]))])
        let model = AlbumInfoViewModel(album: Self.album, feedCopyright: nil, images: images)
        #expect(model.artwork == .none)
        await model.viewAppeared()
        #expect(model.artwork == .loaded(Data([1, 2])))
    }

    @Test(arguments: [
        (
            ImageCacheError.notAnImage(URL(string: "https://a/1.png")!, contentType: "text/html"),
            "The artwork couldn't be loaded."
        ),
        (.network(.offline), "The artwork couldn't be loaded."),
        (.cancelled, "Cancelled"),
    ])
    func viewAppeared_reportsAnArtworkFailure(_ error: ImageCacheError, message: String) async {
        let failing = FakeImages(answers: [URL(string: "https://a/1.png")!: .failure(error)])
        let model = AlbumInfoViewModel(album: Self.album, feedCopyright: nil, images: failing)
        await model.viewAppeared()
        #expect(model.artwork == .failed(message))
    }

    @Test func viewAppeared_retriesAFailedArtworkButNotALoadedOne() async {
        let images = SequencedImages([.failure(.network(.timeout)), .success(Data([7]))])
        let model = AlbumInfoViewModel(album: Self.album, feedCopyright: nil, images: images)
        await model.viewAppeared()
        #expect(model.artwork == .failed("The artwork couldn't be loaded."))
        await model.viewAppeared()
        #expect(model.artwork == .loaded(Data([7])))
        await model.viewAppeared()
        #expect(images.remaining == 0, "a loaded artwork is not loaded again (a third load would fail loudly)")
        #expect(model.artwork == .loaded(Data([7])))
    }

    @Test func viewAppeared_withoutArtworkOrLoader_staysEmpty() async {
        let noArtwork = AlbumInfoViewModel(album: Album(id: "3"), feedCopyright: nil, images: FakeImages(answers: [:]))
        await noArtwork.viewAppeared()
        #expect(noArtwork.artwork == .none)
        let noLoader = AlbumInfoViewModel(album: Self.album, feedCopyright: nil)
        await noLoader.viewAppeared()
        #expect(noLoader.artwork == .none)
    }
}

/// Answers image loads from a queue, one per call; an empty queue fails loudly.
final class SequencedImages: ImageLoading {
    private let queue: Lock<[Result<Data, ImageCacheError>]>

    init(_ results: [Result<Data, ImageCacheError>]) {
        queue = Lock(results)
    }

    var remaining: Int { queue.withLock { $0.count } }

    func image(for url: URL) async throws(ImageCacheError) -> Data {
        let next = queue.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        guard let next else { throw .network(.transport("SequencedImages has nothing queued for \(url)")) }
        return try next.get()
    }
}

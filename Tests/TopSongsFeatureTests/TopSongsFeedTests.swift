import Foundation
import TestTurns
import Testing
import XMLPath

@testable import TopSongsFeature

@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct TopSongsFeedTests {
    private static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("MockData/top-songs")

    @Test func goodFeed_readsEveryField() throws {
        let songs = try TopSongsFeed.songs(
            from: Data(contentsOf: Self.folder.appendingPathComponent("topsongs.good.xml")))
        #expect(songs.count == 27)
        let first = try #require(songs.first)
        #expect(first.id == "1527793042")
        #expect(first.name == "Golden Hour")
        #expect(first.artist == "Mira Solano")
        #expect(first.title == "Golden Hour - Mira Solano")
        #expect(
            first.pageURL?.absoluteString == "https://music.apple.com/us/album/golden-hour/1527793040?i=1527793042&uo=2"
        )
        #expect(first.images.keys.sorted() == [55, 60, 170])
        #expect(first.imageURL()?.absoluteString.hasSuffix("170x170bb.png") == true)
        #expect(first.imageURL(minimumHeight: 58)?.absoluteString.hasSuffix("60x60bb.png") == true)
        #expect(first.previewURL == nil, "{{baseURL}} is filled in by the stub server, not in the file")
        #expect(first.price == Decimal(string: "0.69"))
        #expect(first.currency == "USD")
        #expect(first.priceLabel == "$0.69")
        #expect(first.releaseDate == "July 1, 2020")
        #expect(first.genre == "Pop")
        #expect(songs[13].name == "Honey & Lemon")
        #expect(songs[14].price == nil && songs[14].priceLabel == nil, "an entry without a price still appears")
    }

    @Test func entriesMissingFields_appearWithWhatTheyHave() throws {
        let xml = """
            <feed><entry><title>Only - A Title</title></entry><entry><im:artist>Only Artist</im:artist></entry></feed>
            """
        let songs = try TopSongsFeed.songs(from: Data(xml.utf8))
        #expect(songs.map(\.id) == ["position-0", "position-1"])
        #expect(songs.map(\.displayName) == ["Only", "Untitled"])
        #expect(songs[1].artist == "Only Artist")
        #expect(songs[0].imageURL() == nil)
    }

    @Test func emptyFeed_hasNoSongs() throws {
        #expect(
            try TopSongsFeed.songs(from: Data(contentsOf: Self.folder.appendingPathComponent("topsongs.empty.xml")))
                .isEmpty)
    }

    @Test func badFeed_isAnErrorWithItsLineNotAPartialList() throws {
        #expect {
            try TopSongsFeed.songs(from: Data(contentsOf: Self.folder.appendingPathComponent("topsongs.bad.xml")))
        } throws: { error in
            (error as? XMLPathError).map { $0.line > 1 } ?? false
        }
    }
}

/// Bad bytes in a feed end in a typed error, never in a crash of the app.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct TopSongsFeedHostileInputTests {
    @Test(arguments: [
        Array("<".utf8) + [0xFF] + Array("?>>".utf8),
        Array("<feed>&a".utf8) + [0xFF] + Array(";</feed>".utf8),
        Array("<feed><!-- ".utf8) + [0xE9] + Array(" --></feed>".utf8),
    ])
    func bytesThatCrashedXMLParser_areAnXMLPathError(_ bytes: [UInt8]) {
        #expect(throws: XMLPathError.self) { try TopSongsFeed.songs(from: Data(bytes)) }
    }

    @Test func aProcessingInstructionWithoutData_parsesNormally() throws {
        let feed = "<?m?><feed><entry><im:name>Song</im:name></entry></feed>"
        #expect(try TopSongsFeed.songs(from: Data(feed.utf8)).map(\.name) == ["Song"])
    }
}

@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct TopSongsEndpointTests {
    @Test(
        arguments: [
            (TopSongsEndpoint(), nil, "https://itunes.apple.com/us/rss/topsongs/limit=25/xml"),
            (
                TopSongsEndpoint(limit: 10), URL(string: "http://127.0.0.1:8080"),
                "http://127.0.0.1:8080/us/rss/topsongs/limit=10/xml"
            ),
        ] as [(TopSongsEndpoint, URL?, String)])
    func endpoint_buildsTheFeedURL(_ feed: TopSongsEndpoint, baseURL: URL?, expected: String) throws {
        let endpoint = baseURL.map { feed.endpoint(baseURL: $0) } ?? feed.endpoint()
        #expect(try endpoint.url().absoluteString == expected)
    }
}

import Foundation
import TestTurns
import Testing

@testable import AlbumsFeature

@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct AlbumFeedDecodingTests {
    private func decode(_ json: String) throws -> AlbumFeed {
        try JSONDecoder().decode(AlbumFeed.self, from: Data(json.utf8))
    }

    @Test func v1_decodesPerAlbumFields() throws {
        let feed = try decode(
            #"""
            {"feed": {"title": "Top Albums", "copyright": "Feed ©", "results": [
              {"artistName": "DJ Lowtide", "id": "1508023035", "releaseDate": "2020-04-17", "name": "Concrete Garden",
               "kind": "album", "copyright": "℗ 2020 Lowtide", "contentAdvisoryRating": "Explicit",
               "artworkUrl100": "https://is4-ssl.mzstatic.com/image/200x200bb.png",
               "genres": [{"genreId": "18", "name": "Hip-Hop/Rap", "url": "https://itunes.apple.com/us/genre/id18"},
                          {"genreId": "34", "name": "Music", "url": "https://itunes.apple.com/us/genre/id34"}],
               "url": "https://music.apple.com/us/album/concrete-garden/1508023035?app=music"}]}}
            """#)
        #expect(feed.title == "Top Albums")
        #expect(feed.copyright == "Feed ©")
        let album = try #require(feed.albums.first)
        #expect(
            album
                == Album(
                    id: "1508023035", name: "Concrete Garden", artistName: "DJ Lowtide",
                    artworkURL: URL(string: "https://is4-ssl.mzstatic.com/image/200x200bb.png"),
                    releaseDate: "2020-04-17",
                    kind: "album", copyright: "℗ 2020 Lowtide", contentAdvisory: .explicit,
                    genres: [.init(id: "18", name: "Hip-Hop/Rap"), .init(id: "34", name: "Music")],
                    url: URL(string: "https://music.apple.com/us/album/concrete-garden/1508023035?app=music")))
    }

    @Test func v2_decodesWithFeedCopyrightOnlyAndTheOddAdvisorySpelling() throws {
        let feed = try decode(
            #"""
            {"feed": {"copyright": "Copyright © 2022 Apple Inc.", "results": [
              {"artistName": "A", "id": "1", "name": "X", "kind": "albums", "contentAdvisoryRating": "Explict", "genres": []},
              {"artistName": "B", "id": "2", "name": "Y", "kind": "albums"},
              {"artistName": "C", "id": "3", "name": "Z", "kind": "albums", "contentAdvisoryRating": "Unrated"}]}}
            """#)
        #expect(feed.copyright == "Copyright © 2022 Apple Inc.")
        #expect(feed.albums.map(\.contentAdvisory) == [.explicit, nil, .other("Unrated")])
        #expect(feed.albums.allSatisfy { $0.copyright == nil && $0.kind == "albums" })
    }

    @Test func oddAlbums_keepTheirSiblings() throws {
        let feed = try decode(
            #"""
            {"feed": {"results": [
              {"id": 42, "name": "Number id"},
              {"name": "No id"},
              null,
              7,
              {"id": "5", "name": "   ", "artistName": ["not", "a", "string"], "url": "not a url",
               "artworkUrl100": "ftp://x/y.png", "genres": [{"genreId": "1"}, "junk", {"name": "Rock"}], "unknown": {"a": 1}},
              {"id": "6", "name": "Fine", "releaseDate": 20200417}
            ]}}
            """#)
        #expect(feed.albums.map(\.id) == ["42", "position-1", "5", "6"])
        let odd = feed.albums[2]
        #expect(odd.name == nil)
        #expect(odd.artistName == nil)
        #expect(odd.url == nil)
        #expect(odd.artworkURL == nil)
        #expect(odd.genres == [.init(name: "Rock")])
        #expect(feed.albums[3].releaseDate == "20200417")
    }

    @Test(arguments: [#"{"feed": {"results": {"0": {}}}}"#, #"{"results": []}"#, #"{"feed": {}}"#, "[]"])
    func schemaBreaks_failTheWholeFeed(_ json: String) {
        #expect(throws: DecodingError.self) { try decode(json) }
    }

    @Test func mockDataFeeds_decodeEveryAlbum() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("MockData/albums")
        let v1 = try JSONDecoder().decode(
            AlbumFeed.self, from: Data(contentsOf: folder.appendingPathComponent("top-albums.good.json")))
        #expect(v1.albums.count == 100)
        #expect(Set(v1.albums.map(\.id)).count == 100)
        let v2 = try JSONDecoder().decode(
            AlbumFeed.self, from: Data(contentsOf: folder.appendingPathComponent("most-played.good.json")))
        #expect(v2.albums.count == 50)
        #expect(v2.copyright != nil)
    }

    @Test(
        arguments: [
            (
                AlbumsEndpoint.v1(), nil,
                "https://rss.itunes.apple.com/api/v1/us/apple-music/top-albums/all/100/explicit.json"
            ),
            (.v2(), nil, "https://rss.applemarketingtools.com/api/v2/us/music/most-played/100/albums.json"),
            (
                .v1(country: "gb", limit: 10), URL(string: "http://127.0.0.1:8080"),
                "http://127.0.0.1:8080/api/v1/gb/apple-music/top-albums/all/10/explicit.json"
            ),
            (.v2(limit: 5), URL(string: "http://[::1]:9"), "http://[::1]:9/api/v2/us/music/most-played/5/albums.json"),
        ] as [(AlbumsEndpoint, URL?, String)])
    func endpoints_buildTheFeedURLs(_ endpoint: AlbumsEndpoint, baseURL: URL?, expected: String) throws {
        #expect(try endpoint.endpoint(baseURL: baseURL).url().absoluteString == expected)
    }
}

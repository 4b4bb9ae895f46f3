import Foundation
import TestTurns
import Testing

@testable import TrackSearchFeature

@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct TrackDecodingTests {
    private static let mixed = #"""
        {"resultCount": 8, "results": [
          {"wrapperType": "track", "kind": "song", "trackId": 1, "trackName": "Banana Pancakes", "artistName": "Jack Johnson",
           "trackTimeMillis": 191707, "previewUrl": "https://audio.test/1.m4a", "artworkUrl100": "https://art.test/1.jpg"},
          {"wrapperType": "track", "kind": "music-video", "trackId": 2, "trackName": "Upside Down", "trackTimeMillis": 208000},
          {"wrapperType": "track", "kind": "feature-movie", "trackId": 3, "trackName": "A Weekend at the Sea",
           "trackTimeMillis": 5423000, "longDescription": "A long one.", "shortDescription": "Short."},
          {"wrapperType": "track", "kind": "tv-episode", "trackId": 4, "trackName": "Pilot", "collectionName": "Surf Show"},
          {"wrapperType": "track", "kind": "podcast", "trackId": 5, "collectionName": "Surf Talk"},
          {"wrapperType": "audiobook", "collectionId": 6, "collectionName": "The Sea Within", "artistName": "R. Writer",
           "description": "An audiobook &amp; its description.", "previewUrl": "https://audio.test/6.m4a"},
          {"wrapperType": "track", "kind": "feature-movie", "trackId": 7, "trackName": "Tiny Waves", "primaryGenreName": "Short Films"},
          {"wrapperType": "track", "kind": "song", "artistName": "Nobody", "previewUrl": "https://audio.test/x.m4a"},
          "not an object"
        ]}
        """#

    @Test func mixedMedia_allBecomeRows() throws {
        let tracks = try JSONDecoder().decode(TrackSearchResponse.self, from: Data(Self.mixed.utf8)).tracks
        let rows = tracks.map(TrackRow.init)
        #expect(
            rows.map(\.kindLabel) == [
                "Song", "Music Video", "Movie", "TV Episode", "Podcast", "Audiobook", "Short Film", "Song",
            ])
        #expect(
            rows.map(\.title) == [
                "Banana Pancakes", "Upside Down", "A Weekend at the Sea", "Pilot", "Surf Talk", "The Sea Within",
                "Tiny Waves", "Untitled",
            ])
        #expect(rows.map(\.duration) == ["3:11", "3:28", "1:30:23", nil, nil, nil, nil, nil])
        #expect(rows[2].description == "A long one.")
        #expect(rows[5].description == "An audiobook & its description.", "entities decoded")
        #expect(rows[0].description == nil)
        #expect(rows[5].id == "collection-6")
        #expect(rows[7].id.hasPrefix("content-"))
        #expect(Set(rows.map(\.id)).count == rows.count)
    }

    @Test func identity_isStableAcrossDecodes() throws {
        let first = try JSONDecoder().decode(TrackSearchResponse.self, from: Data(Self.mixed.utf8)).tracks.map(\.id)
        let second = try JSONDecoder().decode(TrackSearchResponse.self, from: Data(Self.mixed.utf8)).tracks.map(\.id)
        #expect(first == second)
    }

    @Test(arguments: [
        (0, "0:00"), (59_999, "0:59"), (61_000, "1:01"), (3_599_000, "59:59"), (3_600_000, "1:00:00"),
        (36_061_000, "10:01:01"),
    ])
    func duration_formatsMinutesAndHours(_ millis: Int, expected: String) {
        #expect(TrackRow.duration(milliseconds: millis) == expected)
    }

    @Test func duration_ofANegativeValueIsNil() {
        #expect(TrackRow.duration(milliseconds: -1) == nil)
    }

    @Test(arguments: [
        ("jack johnson", 0, "https://itunes.apple.com/search?term=jack%20johnson&offset=0&limit=25"),
        ("AC/DC & co+", 25, "https://itunes.apple.com/search?term=AC%2FDC%20%26%20co%2B&offset=25&limit=25"),
        ("Beyoncé 🐝", 50, "https://itunes.apple.com/search?term=Beyonc%C3%A9%20%F0%9F%90%9D&offset=50&limit=25"),
    ])
    func page_buildsTheURL(_ term: String, _ offset: Int, expected: String) throws {
        #expect(try TrackSearchPage(term: term, offset: offset).endpoint().url().absoluteString == expected)
    }

    @Test(arguments: [
        ("ebook", nil, "Book"), ("coached-audio", nil, "Coached Audio"), (nil, "collection", "Collection"),
        (nil, nil, "Item"),
    ])
    func kindLabel_coversOtherKinds(_ kind: String?, _ wrapper: String?, expected: String) {
        #expect(TrackRow.kindLabel(kind: kind, wrapperType: wrapper, genre: nil) == expected)
    }

    @Test(arguments: [
        ("<b>Bold</b> and <i>italic</i>", "Bold and italic"),
        ("One.<br />Two.<br/>Three.<BR>Four.", "One.\nTwo.\nThree.\nFour."),
        ("First.<br /><br /><br />Second.", "First.\n\nSecond."),
        ("<p>Para one.</p><p>Para two.</p>", "Para one.\n\nPara two."),
        ("Tom &amp; Jerry &lt;3 &quot;x&quot; &#39;y&#39; &#233;t&#xE9;", "Tom & Jerry <3 \"x\" 'y' été"),
        ("&#8220;Warm&#8221; &ndash; a&nbsp;reviewer&hellip;", "\u{201C}Warm\u{201D} \u{2013} a reviewer\u{2026}"),
        ("  spaced   out  <br />  &#xa0; ", "spaced out"),
        ("AT&T & co &unknown; &#0;", "AT&T & co &unknown; &#0;"),
        ("<a href=\"https://x\">link</a> <unclosed", "link <unclosed"),
        ("", ""),
    ])
    func htmlDescriptions_readAsPlainText(_ html: String, expected: String) {
        #expect(HTMLText.readable(html) == expected)
    }
}

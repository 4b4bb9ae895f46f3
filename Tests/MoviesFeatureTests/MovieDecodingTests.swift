import Foundation
import TestTurns
import Testing

@testable import MoviesFeature

@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct MovieDecodingTests {
    @Test func results_withoutIDOrName_areSkippedAndDuplicatesKeptOnce() throws {
        let json = #"""
            {"resultCount": 6, "results": [
              {"trackId": 1, "trackName": "One", "trackPrice": 4.99, "currency": "AUD", "previewUrl": "https://p/1.m4v",
               "artworkUrl100": "https://a/1.jpg", "primaryGenreName": "Drama", "longDescription": "Long."},
              {"trackName": "No id"},
              {"trackId": 2},
              {"trackId": "3", "trackName": "String id"},
              {"trackId": 4, "trackName": "Bare"},
              {"trackId": 1, "trackName": "One again"}]}
            """#
        let movies = try JSONDecoder().decode(MovieSearchResponse.self, from: Data(json.utf8)).movies
        #expect(
            movies == [
                Movie(
                    id: 1, name: "One", trackPrice: 4.99, currency: "AUD", previewURL: URL(string: "https://p/1.m4v"),
                    artworkURL: URL(string: "https://a/1.jpg"), genre: "Drama", longDescription: "Long."),
                Movie(id: 4, name: "Bare"),
            ])
    }

    @Test(arguments: [#"{"resultCount": 0}"#, #"{"results": {}}"#, "[]"])
    func brokenAnswers_fail(_ json: String) {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(MovieSearchResponse.self, from: Data(json.utf8))
        }
    }

    @Test(arguments: [
        (9.99, "AUD", "en_AU", "$9.99"), (9.99, "AUD", "en_US", "A$9.99"), (14.0, "USD", "en_US", "$14.00"),
        (4.99, "EUR", "de_DE", "4,99\u{00A0}€"),
    ])
    func priceText_formatsWithTheCurrency(_ price: Double, _ currency: String, _ locale: String, expected: String) {
        let movie = Movie(id: 1, name: "M", trackPrice: price, currency: currency)
        #expect(movie.priceText(locale: Locale(identifier: locale)) == expected)
    }

    @Test func priceText_isNilWithoutPriceOrCurrency() {
        #expect(Movie(id: 1, name: "M", currency: "AUD").priceText() == nil)
        #expect(Movie(id: 1, name: "M", trackPrice: 1).priceText() == nil)
    }

    @Test(arguments: [
        ("star wars", "au", "https://itunes.apple.com/search?term=star%20wars&country=au&media=movie"),
        ("Amélie & co", "fr", "https://itunes.apple.com/search?term=Am%C3%A9lie%20%26%20co&country=fr&media=movie"),
    ])
    func search_buildsTheURL(_ term: String, _ country: String, expected: String) throws {
        #expect(try MovieSearch(term: term, country: country).endpoint().url().absoluteString == expected)
        #expect(MovieSearch(term: term).country == "au")
    }
}

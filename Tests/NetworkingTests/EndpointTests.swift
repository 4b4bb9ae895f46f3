import Foundation
import Networking
import TestTurns
import Testing

@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct EndpointTests {
    private let base = URL(string: "https://itunes.apple.com")!

    @Test(arguments: [
        ("jack johnson", "https://itunes.apple.com/search?term=jack%20johnson"),
        ("rock & roll", "https://itunes.apple.com/search?term=rock%20%26%20roll"),
        ("c++", "https://itunes.apple.com/search?term=c%2B%2B"),
        ("a=b;c", "https://itunes.apple.com/search?term=a%3Db%3Bc"),
        ("Beyoncé", "https://itunes.apple.com/search?term=Beyonc%C3%A9"),
        ("🎸 rock", "https://itunes.apple.com/search?term=%F0%9F%8E%B8%20rock"),
        ("100%", "https://itunes.apple.com/search?term=100%25"),
    ])
    func url_encodesQueryValues(_ term: String, expected: String) throws {
        let endpoint = Endpoint(baseURL: base, path: "/search", query: [URLQueryItem(name: "term", value: term)])
        let url = try endpoint.url()
        #expect(url.absoluteString == expected)
        let decoded = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first?.value
        #expect(decoded == term, "the query decodes back to what was asked")
    }

    @Test(arguments: [
        ("http://127.0.0.1:8080", "/a/b", "http://127.0.0.1:8080/a/b"),
        ("http://127.0.0.1:8080/", "/a", "http://127.0.0.1:8080/a"),
        ("https://host/prefix", "a", "https://host/prefix/a"),
        ("https://host/prefix/", "/a b", "https://host/prefix/a%20b"),
    ])
    func url_joinsBaseAndPath(_ base: String, _ path: String, expected: String) throws {
        #expect(try Endpoint(baseURL: URL(string: base)!, path: path).url().absoluteString == expected)
    }

    @Test func url_keepsQueryOrderAndValuelessItems() throws {
        let endpoint = Endpoint(
            baseURL: base, path: "/search",
            query: [
                .init(name: "term", value: "a"), .init(name: "offset", value: "25"),
                .init(name: "explicit", value: nil),
            ])
        #expect(try endpoint.url().absoluteString == "https://itunes.apple.com/search?term=a&offset=25&explicit")
    }

    @Test func url_rejectsABaseWithoutHost() {
        #expect(throws: APIError.self) { try Endpoint(baseURL: URL(fileURLWithPath: "/tmp"), path: "/x").url() }
    }

    @Test func request_carriesMethodHeadersAndTimeout() throws {
        let request = try Endpoint(
            baseURL: base, path: "/x", method: "POST", headers: ["Accept": "application/json"], timeout: 2
        )
        .request()
        #expect(request.method == "POST")
        #expect(request.headers == ["Accept": "application/json"])
        #expect(request.timeout == 2)
    }
}

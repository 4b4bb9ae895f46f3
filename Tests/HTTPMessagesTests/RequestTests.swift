import HTTPMessages
import TestTurns
import Testing

@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct HTTPRequestTests {
    @Test(arguments: [
        ("/search?term=jack+johnson&limit=25", "/search", [("term", "jack johnson"), ("limit", "25")]),
        ("/a%20b/c?q=%C3%A9t%C3%A9&x=1%2B1&flag", "/a b/c", [("q", "été"), ("x", "1+1"), ("flag", "")]),
        ("/?a=%26&b=%3D", "/", [("a", "&"), ("b", "=")]),
        ("http://example.com:8080/abs?x=1", "/abs", [("x", "1")]),
        ("http://example.com", "/", []),
        ("/search?term=%F0%9F%8E%B8", "/search", [("term", "🎸")]),
    ])
    func split_decodesPathAndQuery(_ target: String, path: String, query: [(String, String)]) throws {
        let request = try Request(method: "GET", target: target)
        #expect(request.path == path)
        #expect(request.query == query.map { Request.QueryItem(name: $0.0, value: $0.1) })
    }

    @Test(arguments: ["search", "/a%zz", "/a?x=%", "/a?x=%C3"])
    func split_rejectsBadTargets(_ target: String) {
        #expect(throws: HTTPError.self) { try Request(method: "GET", target: target) }
    }

    @Test(
        arguments: [
            (1, nil, true), (1, "close", false), (1, "Keep-Alive, Close", false),
            (0, nil, false), (0, "keep-alive", true),
        ] as [(Int, String?, Bool)])
    func keepAlive_followsVersionAndConnectionHeader(_ minor: Int, connection: String?, expected: Bool) throws {
        let headers = HTTPHeaders(connection.map { [("Connection", $0)] } ?? [])
        let request = try Request(method: "GET", target: "/", minorVersion: minor, headers: headers)
        #expect(request.keepAlive == expected)
    }

    @Test func headers_lookUpCaseInsensitively() {
        var headers = HTTPHeaders([("Content-Type", "a"), ("X-Many", "1"), ("x-many", "2")])
        #expect(headers["content-type"] == "a")
        #expect(headers.values("X-MANY") == ["1", "2"])
        headers.set("X-Many", "3")
        #expect(headers.values("x-many") == ["3"])
    }
}

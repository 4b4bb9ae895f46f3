import Foundation
import HTTPEngine
import JSONModel
import StubTestSupport
import TestTurns
import Testing

@testable import StubCore
@testable import StubServer

/// Stubs that match on the request body, over real sockets: JSON by subset and exactly, JSON paths, forms, text.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct BodyMatchingTests {
    static let stubs = #"""
        {"stubs": [
          {"name": "echo-regex", "request": {"method": "POST", "path": "/echo", "body": {"matches": "^p"}},
           "variants": {"good": {"body": "regex"}, "bad": {"body": "{"}, "nil": {"body": ""}}},
          {"name": "echo-exact", "request": {"method": "POST", "path": "/echo", "body": {"equals": "ping"}},
           "variants": {"good": {"body": "exact"}, "bad": {"body": "{"}, "nil": {"body": ""}}},
          {"name": "search-exact", "request": {"method": "POST", "path": "/search",
             "body": {"json": {"term": "jack", "limit": 5}, "exact": true}},
           "variants": {"good": {"body": "exact"}, "bad": {"body": "{"}, "nil": {"body": ""}}},
          {"name": "search-any", "request": {"method": "POST", "path": "/search", "body": {"json": {"term": "jack"}}},
           "variants": {"good": {"body": "subset"}, "bad": {"body": "{"}, "nil": {"body": ""}}},
          {"name": "albums", "request": {"method": "POST", "path": "/graphql", "body": {"json": {"operationName": "Albums"}}},
           "variants": {"good": {"body": "{\"data\":{\"albums\":[]}}"}, "bad": {"body": "{"}, "nil": {"body": ""}}},
          {"name": "album", "request": {"method": "POST", "path": "/graphql",
             "body": {"jsonPath": {"operationName": "Album", "variables.id": {"matches": "^[0-9]+$"}}}},
           "variants": {
             "good": {"headers": {"Content-Type": "application/json"}, "template": true,
                      "body": "{\"id\":\"{{body.variables.id}}\",\"by\":\"{{header.X-User}}\",\"tags\":{{{body.variables.tags}}}}"},
             "bad": {"body": "{"}, "nil": {"body": ""}}},
          {"name": "cart-add", "request": {"method": "POST", "path": "/cart", "body": {"json": {"items": [{"id": "7"}]}}},
           "variants": {"good": {"status": 201, "body": "added"}, "bad": {"body": "{"}, "nil": {"body": ""}}},
          {"name": "login", "request": {"method": "POST", "path": "/login",
             "body": {"form": {"user": "ada lovelace", "password": {"present": true}, "otp": {"absent": true}}}},
           "variants": {"good": {"body": "welcome"}, "bad": {"body": "{"}, "nil": {"body": ""}}}
        ]}
        """#

    @Test(arguments: [
        ("/echo", "ping", "text/plain", "echo-exact"),
        ("/echo", "pong", "text/plain", "echo-regex"),
        ("/search", #"{"limit": 5, "term": "jack"}"#, "application/json", "search-exact"),
        ("/search", #"{"term": "jack", "limit": 5, "offset": 0}"#, "application/json", "search-any"),
        ("/search", #"{"term": "jack", "limit": 6}"#, "application/json", "search-any"),
        ("/graphql", #"{"operationName": "Albums", "query": "{ albums { id } }"}"#, "application/json", "albums"),
        (
            "/graphql", #"{"operationName": "Album", "variables": {"id": "42", "tags": []}}"#, "application/json",
            "album"
        ),
        ("/cart", #"{"items": [{"id": "7", "count": 2}], "user": "u"}"#, "application/json", "cart-add"),
        ("/login", "user=ada+lovelace&password=secret", "application/x-www-form-urlencoded", "login"),
        ("/login", "password=&user=ada%20lovelace", "application/x-www-form-urlencoded", "login"),
    ])
    func aBody_picksTheStubThatMatchesIt(_ path: String, body: String, type: String, expected: String) async throws {
        try await withServer(stubs: Self.stubs) { server in
            let response = try await exchange(server, post(path, body, type: type))
            #expect(response.header("X-Stub-Name") == expected, "\(response.status) \(response.text)")
        }
    }

    @Test(arguments: [
        (
            "/cart", #"{"items": [{"id": "8"}]}"#, "cart-add",
            [StubMiss.Mismatch(field: "body.items[0].id", expected: #""7""#, actual: #""8""#)]
        ),
        (
            "/cart", #"{"items": [{"id": "7"}, {"id": "9"}]}"#, "cart-add",
            [StubMiss.Mismatch(field: "body.items", expected: "1 elements", actual: "2 elements")]
        ),
        ("/cart", "items=7", "cart-add", [StubMiss.Mismatch(field: "body", expected: "JSON", actual: "not JSON")]),
        (
            "/graphql", #"{"operationName": "Album", "variables": {"id": "x7"}}"#, "album",
            [StubMiss.Mismatch(field: "body.variables.id", expected: "matches /^[0-9]+$/", actual: #""x7""#)]
        ),
        (
            "/graphql", #"{"operationName": "Album"}"#, "album",
            [StubMiss.Mismatch(field: "body.variables.id", expected: "matches /^[0-9]+$/", actual: "(absent)")]
        ),
        (
            "/search", #"{"term": "jill", "limit": 5}"#, "search-any",
            [StubMiss.Mismatch(field: "body.term", expected: #""jack""#, actual: #""jill""#)]
        ),
        (
            "/login", "user=ada+lovelace&password=x&otp=1", "login",
            [StubMiss.Mismatch(field: "form.otp", expected: "absent", actual: #""1""#)]
        ),
        ("/echo", "", "echo-exact", [StubMiss.Mismatch(field: "body", expected: #""ping""#, actual: "(empty)")]),
    ])
    func aMissedBody_isNamedByPathInThe404(_ path: String, body: String, stub: String, expected: [StubMiss.Mismatch])
        async throws
    {
        try await withServer(stubs: Self.stubs) { server in
            let response = try await exchange(server, post(path, body))
            #expect(response.status == 404)
            let closest = try JSONDecoder().decode(Unmatched.self, from: Data(response.body)).closest
            let miss = try #require(closest.first { $0.stub == stub }, "\(closest)")
            #expect(miss.mismatches == expected)
            #expect(server.unmatchedRequests().first?.closest?.first { $0.stub == stub }?.mismatches == expected)
        }
    }

    @Test func exactJSON_reportsExtraFieldsAndWrongValues() {
        var found: [StubMiss.Mismatch] = []
        let matcher = BodyMatcher([.json(.object(["term": .string("jack"), "limit": .number(5)]), exact: true)])
        found = matcher.mismatches(of: RequestBody(Array(#"{"term": "jack", "limit": 6, "offset": 0}"#.utf8)))
        #expect(
            found == [
                .init(field: "body.limit", expected: "5", actual: "6"),
                .init(field: "body.offset", expected: "(absent)", actual: "0"),
            ])
        #expect(!matcher.accepts(RequestBody(Array(#"{"term": "jack", "limit": 5, "offset": 0}"#.utf8))))
        #expect(matcher.accepts(RequestBody(Array(#"{"limit": 5.0, "term": "jack"}"#.utf8))))
    }

    @Test(arguments: [
        (#"{"a": [1, 2]}"#, #"{"a": [1, 2], "b": 3}"#, true),
        (#"{"a": [1, 2]}"#, #"{"a": [2, 1]}"#, false),
        (#"{"a": [{"x": 1}]}"#, #"{"a": [{"x": 1, "y": 2}]}"#, true),
        (#"{"a": null}"#, #"{}"#, false),
        (#"{"a": null}"#, #"{"a": null}"#, true),
        (#"[1, {"b": true}]"#, #"[1, {"b": true, "c": false}]"#, true),
        (#""text""#, #""text""#, true),
        (#"{"a": "1"}"#, #"{"a": 1}"#, false),
    ])
    func jsonContainment_isBySubsetForObjectsAndElementWiseForArrays(expected: String, actual: String, holds: Bool)
        throws
    {
        let decode = { (text: String) in try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) }
        #expect(BodyMatcher.contains(try decode(actual), try decode(expected)) == holds)
    }

    @Test func templates_readTheBodyAndHeadersAndEscapeForJSON() async throws {
        try await withServer(stubs: Self.stubs) { server in
            let body = #"{"operationName": "Album", "variables": {"id": "42", "tags": ["a", "b\"c"]}}"#
            let response = try await exchange(server, post("/graphql", body, "X-User: ada \"<the first>\"\r\n"))
            #expect(response.header("X-Stub-Name") == "album")
            let answer = try response.json()
            #expect(answer["id"] as? String == "42")
            #expect(answer["by"] as? String == #"ada "<the first>""#)
            #expect(answer["tags"] as? [String] == ["a", "b\"c"], "the raw form inserts JSON as it is")
        }
    }

    @Test func journal_filtersByBodyText() async throws {
        try await withServer(stubs: Self.stubs) { server in
            _ = try await exchange(server, post("/echo", "ping"))
            _ = try await exchange(server, post("/search", #"{"term": "jack"}"#))
            _ = try await exchange(server, post("/search", #"{"term": "jill"}"#))
            #expect(server.journal(JournalQuery(bodyContains: "jack")).map(\.stub) == ["search-any"])
            let page = try await exchange(server, get("/__stub/journal?body=%22term%22")).json()
            #expect(page["count"] as? Int == 2)
            let echo = try #require(server.journal(JournalQuery(path: "/echo")).first)
            #expect(
                JournalQuery(path: "/echo", bodyContains: "pong").mismatches(of: echo) == [
                    #"body: expected to contain "pong""#
                ])
        }
    }

    private struct Unmatched: Decodable {
        var closest: [StubMiss]
    }
}

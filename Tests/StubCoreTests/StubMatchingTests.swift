import HTTPMessages
import TestTurns
import Testing

@testable import StubCore

@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct StubMatchingTests {
    private static func variants() -> [String: StubVariant] {
        ["good": StubVariant(), "bad": StubVariant(), "nil": StubVariant()]
    }

    private static func stub(
        _ name: String, _ path: String, method: String = "GET", query: [(String, ValueMatcher)] = [],
        headers: [(String, ValueMatcher)] = []
    ) -> Stub {
        Stub(
            name: name,
            request: RequestPattern(
                method: method, path: PathPattern(path), query: query.map { (name: $0.0, matcher: $0.1) },
                headers: headers.map { (name: $0.0, matcher: $0.1) }),
            variants: variants())
    }

    private let catalog: StubCatalog

    init() throws {
        catalog = try StubCatalog(stubs: [
            Self.stub("any-album", "/albums/{id}"),
            Self.stub("new-album", "/albums/new"),
            Self.stub("search-present", "/search", query: [("term", .present)]),
            Self.stub("search-exact", "/search", query: [("term", .exact("jack johnson"))]),
            Self.stub("search-regex", "/search", query: [("term", .matches(try .init("^j")))]),
            Self.stub("no-offset", "/page", query: [("offset", .absent)]),
            Self.stub("json-only", "/feed", headers: [("Accept", .matches(try .init("json")))]),
            Self.stub("create", "/items", method: "POST"),
            Self.stub("first", "/tie"),
            Self.stub("second", "/tie"),
        ])
    }

    private func matchedName(_ method: String, _ target: String, headers: [(String, String)] = []) throws -> String? {
        let request = try Request(
            method: method, target: target, headers: HTTPHeaders(headers.map { ($0.0, $0.1) }))
        if case .matched(let stub, _) = catalog.match(request) { return stub.name }
        return nil
    }

    @Test(arguments: [
        ("/albums/42", "any-album"),
        ("/albums/new", "new-album"),
        ("/search?term=jack+johnson", "search-exact"),
        ("/search?term=jill", "search-regex"),
        ("/search?term=zed", "search-present"),
        ("/page", "no-offset"),
        ("/tie", "first"),
    ])
    func match_picksTheMostSpecificStub(_ target: String, expected: String) throws {
        #expect(try matchedName("GET", target) == expected)
    }

    /// Found by the request-decoder fuzzer: "/" followed by a combining mark (`/%CC%A8`) is one `Character`, so
    /// splitting or prefix checks by `Character` missed the slash.
    @Test func aCombiningMarkAfterASlash_stillSplitsThePath() throws {
        #expect(PathPattern("/albums/{id}").match("/albums/\u{328}") == ["id": "\u{328}"])
        #expect(PathPattern("/albums/{id}").match("/albums/\u{328}x/y") == nil)
        #expect(try matchedName("GET", "/albums/%CC%A8") == "any-album")
    }

    @Test func match_letsGetStubsAnswerHead() throws {
        #expect(try matchedName("HEAD", "/albums/1") == "any-album")
    }

    @Test func match_capturesPathParameters() throws {
        guard case .matched(_, let parameters) = catalog.match(try Request(method: "GET", target: "/albums/a%20b"))
        else {
            Issue.record("no match")
            return
        }
        #expect(parameters == ["id": "a b"])
    }

    @Test func match_checksHeadersAndAbsence() throws {
        #expect(try matchedName("GET", "/feed", headers: [("accept", "application/json")]) == "json-only")
        #expect(try matchedName("GET", "/feed", headers: [("Accept", "text/html")]) == nil)
        #expect(try matchedName("GET", "/page?offset=25") == nil)
    }

    @Test func match_reportsMethodNotAllowedWithTheAllowedMethods() throws {
        let result = catalog.match(try Request(method: "DELETE", target: "/items"))
        guard case .methodNotAllowed(let allowed) = result else {
            Issue.record("expected 405, got \(result)")
            return
        }
        #expect(allowed == ["POST"])
        guard case .methodNotAllowed(let getAllowed) = catalog.match(try Request(method: "PUT", target: "/tie"))
        else {
            Issue.record("expected 405")
            return
        }
        #expect(getAllowed == ["GET", "HEAD"])
    }

    @Test func match_explainsMissesFieldByField() throws {
        let result = catalog.match(try Request(method: "GET", target: "/page?offset=25"))
        guard case .unmatched(let closest) = result else {
            Issue.record("expected a miss, got \(result)")
            return
        }
        #expect(closest.count == 3)
        #expect(closest[0].stub == "no-offset")
        #expect(closest[0].mismatches == [.init(field: "query.offset", expected: "absent", actual: "25")])
        #expect(closest[1].mismatches.map(\.field) == ["path"])
        let feed = catalog.match(try Request(method: "POST", target: "/feed"))
        guard case .unmatched(let misses) = feed else {
            Issue.record("expected a miss")
            return
        }
        #expect(
            misses[0].mismatches == [
                .init(field: "method", expected: "GET", actual: "POST"),
                .init(field: "header.Accept", expected: "matches /json/", actual: "(absent)"),
            ])
    }

    @Test func init_rejectsStubsWithoutRequiredVariants() {
        let incomplete = Stub(
            name: "x", request: RequestPattern(path: PathPattern("/x")), variants: ["good": StubVariant()])
        #expect {
            try StubCatalog(stubs: [incomplete])
        } throws: { error in
            (error as? CatalogError)?.problems.map(\.message) == ["missing required variants bad, nil"]
        }
    }
}

import Foundation
import StubCore
import StubServer
import StubServerRecording
import StubTestSupport
import TestTurns
import Testing
import XMLPath

/// The drift check against a stand-in upstream whose answers lost a key, changed a type and gained a key.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct DriftCheckTests {
    static let fixtures = """
        {"stubs": [
          {"name": "get-search", "request": {"path": "/search", "query": {"term": "a"}},
           "variants": {"good": {"headers": {"Content-Type": "application/json"}, "bodyFile": "search.json"},
                        "bad": {"body": "{"}, "nil": {"body": ""}}},
          {"name": "get-album", "request": {"path": "/albums/{id}"}, "replay": {"path": "/albums/7"},
           "variants": {"good": {"headers": {"Content-Type": "application/json"}, "body": "{\\"id\\": 7}"},
                        "bad": {"body": "{"}, "nil": {"body": ""}}},
          {"name": "get-track", "request": {"path": "/tracks/{id}"},
           "variants": {"good": {"body": "x"}, "bad": {"body": "{"}, "nil": {"body": ""}}},
          {"name": "get-feed", "request": {"path": "/feed.xml"},
           "variants": {"good": {"headers": {"Content-Type": "application/xml"},
                                 "body": "<feed><entry><link href=\\"a\\"/><title>t</title></entry></feed>"},
                        "bad": {"body": "<"}, "nil": {"body": ""}}},
          {"name": "get-gone", "request": {"path": "/gone"},
           "variants": {"good": {"headers": {"Content-Type": "application/json"}, "body": "{}"},
                        "bad": {"body": "{"}, "nil": {"body": ""}}}
        ]}
        """

    static func upstream() throws -> StubCatalog {
        func answer(_ path: String, _ type: String, _ body: String, status: Int = 200) -> Stub {
            let good = StubVariant(
                status: status, headers: [HeaderField(name: "Content-Type", value: type)], body: Array(body.utf8))
            return Stub(
                name: "upstream" + path.replacingOccurrences(of: "/", with: "-"),
                request: RequestPattern(path: PathPattern(path)),
                variants: ["good": good, "bad": StubVariant(), "nil": StubVariant()])
        }
        return try StubCatalog(stubs: [
            answer(
                "/search", "application/json; charset=utf-8",
                #"{"resultCount": 1, "results": [{"trackId": "1", "price": 1.5, "isStreamable": true}]}"#),
            answer("/albums/7", "application/json", #"{"id": 7}"#),
            answer("/feed.xml", "text/xml", "<feed><entry><link rel=\"x\"/><title>t</title></entry></feed>"),
            answer("/gone", "application/json", #"{"error": "gone"}"#, status: 410),
        ])
    }

    @Test func drift_reportsLostChangedAndNewKeys_andSkipsWhatCannotBeReplayed() async throws {
        let fixtures = try TemporaryFixtures([
            "api/stubs.json": Self.fixtures,
            "api/search.json": #"{"resultCount": 1, "results": [{"trackName": "x", "trackId": 1, "price": 1.5}]}"#,
        ])
        defer { fixtures.remove() }
        let catalog = try StubCatalog.load(from: fixtures.root)
        let upstream = try StubServer.start(catalog: Self.upstream())
        // A bound of the test's own per request (15 s): an upstream that stops answering fails the test sooner than
        // the checker's default 30 s each, and a loaded machine's slow first request does not.
        let report = await DriftChecker(upstream: upstream.baseURL, timeout: .seconds(15)).check(catalog)
        await upstream.stop()
        #expect(report.checked == ["get-search", "get-album", "get-feed", "get-gone"])
        #expect(report.skipped == [#"get-track: its path is not literal; add a "replay" example"#])
        #expect(
            report.differences.map(\.description) == [
                "api/stubs.json: get-search: results[].trackId: upstream string (fixture: number)",
                "api/stubs.json: get-search: results[].trackName: missing upstream (fixture: string)",
                "api/stubs.json: get-search: results[].isStreamable: new upstream: bool",
                "api/stubs.json: get-feed: content type: upstream text/xml (fixture: application/xml)",
                "api/stubs.json: get-feed: feed.entry.link@href: missing upstream",
                "api/stubs.json: get-feed: feed.entry.link@rel: new upstream",
                "api/stubs.json: get-gone: status: upstream 410 (fixture: 200)",
                "api/stubs.json: get-gone: error: new upstream: string",
            ])
        #expect(
            report.differences.filter(\.isBreaking).map(\.keyPath) == [
                "results[].trackId", "results[].trackName", "feed.entry.link@href", "status",
            ])
        #expect(report.fails(strict: false))
        let newOnly = DriftChecker.Report(differences: report.differences.filter { !$0.isBreaking })
        #expect(!newOnly.fails(strict: false))
        #expect(newOnly.fails(strict: true))
    }

    /// Content types real APIs send with JSON, and none at all.
    static let jsonLabels: [String?] = [
        "text/javascript; charset=utf-8", "text/javascript", "text/plain", "text/html",
        "application/json; charset=utf-8",
        nil,
    ]

    /// One stub at `/search` whose good answer is `body` labelled `type`, checked against an upstream answering
    /// `upstreamBody` labelled `upstreamType`.
    static func check(
        fixture body: String, type: String?, upstream upstreamBody: String, upstreamType: String?
    ) async throws -> DriftChecker.Report {
        func variant(_ body: String, _ type: String?) -> StubVariant {
            StubVariant(
                headers: type.map { [HeaderField(name: "Content-Type", value: $0)] } ?? [], body: Array(body.utf8))
        }
        func stub(_ good: StubVariant) -> Stub {
            Stub(
                name: "search", file: "api/stubs.json", request: RequestPattern(path: PathPattern("/search")),
                variants: ["good": good, "bad": StubVariant(), "nil": StubVariant()])
        }
        let fixtures = try StubCatalog(stubs: [stub(variant(body, type))])
        let upstream = try StubServer.start(catalog: StubCatalog(stubs: [stub(variant(upstreamBody, upstreamType))]))
        let report = await DriftChecker(upstream: upstream.baseURL, timeout: .seconds(15)).check(fixtures)
        await upstream.stop()
        return report
    }

    @Test(arguments: jsonLabels)
    func drift_readsJSONWhateverItsLabel_andNamesTheLostKey(type: String?) async throws {
        let report = try await Self.check(
            fixture: #"{"resultCount": 1, "results": [{"trackName": "Upside Down", "trackId": 1}]}"#, type: type,
            upstream: #"{"resultCount": 1, "results": [{"trackId": 1}]}"#, upstreamType: type)
        #expect(report.checked == ["search"])
        #expect(
            report.differences.filter(\.isBreaking).map(\.description) == [
                "api/stubs.json: search: results[].trackName: missing upstream (fixture: string)"
            ])
        // A fixture with no label is served as application/octet-stream: a new label, not a break.
        let others = report.differences.filter { !$0.isBreaking }.map(\.description)
        #expect(
            others
                == (type == nil
                    ? ["api/stubs.json: search: content type: upstream application/octet-stream (fixture: none)"] : []))
        #expect(report.fails(strict: false))
    }

    @Test func drift_reportsANewLabelOnTheSameJSON_asADifferenceThatDoesNotBreak() async throws {
        let report = try await Self.check(
            fixture: #"{"results": []}"#, type: "text/javascript; charset=utf-8",
            upstream: #"{"results": []}"#, upstreamType: "application/json")
        #expect(
            report.differences.map(\.description) == [
                "api/stubs.json: search: content type: upstream application/json (fixture: text/javascript)"
            ])
        #expect(!report.fails(strict: false))
        #expect(report.fails(strict: true))
    }

    @Test func drift_breaksWhenTheBodyChangesKind() async throws {
        let xmlFixture = try await Self.check(
            fixture: "<feed><entry/></feed>", type: "application/xml",
            upstream: #"{"feed": {"entry": []}}"#, upstreamType: "application/json")
        #expect(
            xmlFixture.differences.map(\.description) == [
                "api/stubs.json: search: content type: upstream application/json (fixture: application/xml)",
                "api/stubs.json: search: body: upstream JSON (fixture: XML)",
            ])
        #expect(xmlFixture.differences.map(\.isBreaking) == [true, true])

        let sameLabel = try await Self.check(
            fixture: #"{"results": []}"#, type: "text/javascript",
            upstream: "<html><body>Service Unavailable</body></html>", upstreamType: "text/javascript")
        #expect(
            sameLabel.differences.map(\.description) == ["api/stubs.json: search: body: upstream HTML (fixture: JSON)"])
        #expect(sameLabel.fails(strict: false))
    }

    @Test func xmlShapes_compareElementAndAttributePaths() throws {
        let fixture = Data("<feed><entry><link href=\"a\"/><title>t</title></entry></feed>".utf8)
        let upstream = Data("<feed><entry><link rel=\"x\"/><title>t</title><id>1</id></entry></feed>".utf8)
        let fixturePaths = try XMLShape.paths(in: fixture)
        #expect(fixturePaths == ["feed", "feed.entry", "feed.entry.link", "feed.entry.link@href", "feed.entry.title"])
        let upstreamPaths = try XMLShape.paths(in: upstream)
        #expect(fixturePaths.subtracting(upstreamPaths) == ["feed.entry.link@href"])
        #expect(upstreamPaths.subtracting(fixturePaths) == ["feed.entry.id", "feed.entry.link@rel"])
    }
}

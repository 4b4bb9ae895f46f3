import Foundation
import StubServer
import StubServerRecording
import Testing
import XMLPath

/// The drift check against a stand-in upstream whose answers lost a key, changed a type and gained a key.
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
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("drift-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let api = folder.appendingPathComponent("api")
        try FileManager.default.createDirectory(at: api, withIntermediateDirectories: true)
        try Data(Self.fixtures.utf8).write(to: api.appendingPathComponent("stubs.json"))
        try Data(#"{"resultCount": 1, "results": [{"trackName": "x", "trackId": 1, "price": 1.5}]}"#.utf8)
            .write(to: api.appendingPathComponent("search.json"))
        let catalog = try StubCatalog.load(from: folder)
        let upstream = try StubServer.start(catalog: Self.upstream())
        let report = await DriftChecker(upstream: upstream.baseURL).check(catalog)
        await upstream.stop()
        #expect(report.checked == ["get-search", "get-album", "get-feed", "get-gone"])
        #expect(report.skipped == [#"get-track: its path is not literal; add a "replay" example"#])
        #expect(
            report.differences.map(\.description) == [
                "api/stubs.json: get-search: results[].trackId: upstream string (fixture: number)",
                "api/stubs.json: get-search: results[].trackName: missing upstream (fixture: string)",
                "api/stubs.json: get-search: results[].isStreamable: new upstream: bool",
                "api/stubs.json: get-feed: content type: upstream text/xml (fixture: application/xml)",
                "api/stubs.json: get-gone: status: upstream 410 (fixture: 200)",
                "api/stubs.json: get-gone: error: new upstream: string",
            ])
        #expect(report.differences.filter(\.isBreaking).count == 4)
        #expect(report.fails(strict: false))
        let newOnly = DriftChecker.Report(differences: report.differences.filter { !$0.isBreaking })
        #expect(!newOnly.fails(strict: false))
        #expect(newOnly.fails(strict: true))
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

import Foundation
import HTTPMessages
import JSONModel
import StubTestSupport
import TestTurns
import Testing

@testable import StubCore

/// Resource stubs as written in `stubs.json`: what loads, every mistake with its key path, and a reload that keeps
/// what the app wrote unless the seed changed.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct StubResourceFixtureTests {
    static func stubs(_ resource: String, request: String = #""path": "/api/favorites""#) -> String {
        #"{"stubs": [{"name": "favorites", "request": {\#(request)}, "resource": \#(resource), "#
            + #""variants": {"good": {}, "bad": {"body": "{"}, "nil": {"body": ""}}}]}"#
    }

    @Test func everyKey_loadsIntoTheModel() throws {
        let resource = #"""
            {"seed": "favorites.json", "key": "albumId", "list": {"wrap": "results", "count": "count"},
             "filters": ["artist"], "paging": {"limit": "size", "offset": "from"}}
            """#
        let (catalog, problems) = try TemporaryFixtures.load([
            "api/stubs.json": Self.stubs(resource), "api/favorites.json": #"[{"albumId": "7", "artist": "x"}]"#,
        ])
        #expect(problems == [])
        let loaded = try #require(catalog?.stub(named: "favorites")?.resource)
        #expect(loaded.key == "albumId")
        #expect(loaded.seedFile == "favorites.json")
        #expect(loaded.seed == [.object(["albumId": .string("7"), "artist": .string("x")])])
        #expect(loaded.wrap == "results" && loaded.countField == "count")
        #expect(loaded.filters == ["artist"])
        #expect(loaded.paging == StubResource.Paging(limit: "size", offset: "from"))
    }

    @Test(arguments: [
        (#"{"seed": "missing.json"}"#, "api/stubs.json: stubs[0].resource.seed: no such file missing.json"),
        (#"{"seed": [1]}"#, "api/stubs.json: stubs[0].resource.seed[0]: an item must be a JSON object, not a number"),
        (#"{"seed": [{"id": 1}, {"id": 1}]}"#, #"api/stubs.json: stubs[0].resource.seed[1].id: "1" is there twice"#),
        (#"{"seed": {"id": 1}}"#, "api/stubs.json: stubs[0].resource.seed: must be an array of objects, not an object"),
        (#"{"key": ""}"#, "api/stubs.json: stubs[0].resource.key: must name a field, not be empty"),
        (#"{"list": {"count": "n"}}"#, "api/stubs.json: stubs[0].resource.list.wrap: missing"),
        (
            #"{"filters": "artist"}"#,
            "api/stubs.json: stubs[0].resource.filters: must be an array of query parameter names, not a string"
        ),
        (
            #"{"pages": true}"#,
            "api/stubs.json: stubs[0].resource.pages: unknown key (known: seed, key, list, filters, paging)"
        ),
    ])
    func aMistake_isNamedWithItsKeyPath(_ resource: String, _ problem: String) throws {
        let (catalog, problems) = try TemporaryFixtures.load(["api/stubs.json": Self.stubs(resource)])
        #expect(catalog == nil)
        #expect(problems.contains(problem), "\(problems)")
    }

    @Test func aMethod_isRefusedBesideAResource() throws {
        let (_, problems) = try TemporaryFixtures.load([
            "api/stubs.json": Self.stubs("{}", request: #""method": "POST", "path": "/api/favorites""#)
        ])
        #expect(
            problems.contains { $0.hasPrefix("api/stubs.json: stubs[0].request.method: a resource answers GET, POST") })
    }

    @Test func aReload_keepsWhatTheAppWrote_unlessTheSeedChanged() throws {
        let fixtures = try TemporaryFixtures([
            "api/stubs.json": Self.stubs(#"{"seed": "favorites.json"}"#), "api/favorites.json": #"[{"id": 1}]"#,
        ])
        defer { fixtures.remove() }
        let runtime = StubRuntime(
            catalog: try StubCatalog.load(from: fixtures.root),
            StubRuntime.Settings(
                variant: nil, journalCapacity: 10, redaction: Redaction(), seed: 1, chaos: 0, onReload: nil,
                coverage: nil, transport: "test"))
        let post = try Request(
            method: "POST", target: "/api/favorites", headers: HTTPHeaders(), body: Array("{}".utf8))
        #expect(runtime.exchange(post, baseURL: "http://x").status == 201)
        let control = Control(runtime: runtime)
        try control.reload()
        #expect(String(decoding: try control.items(ofResource: "favorites"), as: UTF8.self) == #"[{"id":1},{"id":2}]"#)
        try fixtures.write("api/favorites.json", #"[{"id": 5}]"#)
        try control.reload()
        #expect(String(decoding: try control.items(ofResource: "favorites"), as: UTF8.self) == #"[{"id":5}]"#)
    }

    /// The one control over a runtime with no transport.
    final class Control: LocalStubControl {
        let runtime: StubRuntime
        init(runtime: StubRuntime) { self.runtime = runtime }
        func stop() async {}
    }
}

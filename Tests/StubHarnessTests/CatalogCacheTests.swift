import StubHarness
import StubTestSupport
import TestTurns
import Testing

/// The traits' catalog cache: a folder is loaded once while it stays as it was, and again once it changes.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct CatalogCacheTests {
    static func stubs(named name: String) -> String {
        #"{"stubs": [{"name": "\#(name)", "request": {"path": "/x"}, "#
            + #""variants": {"good": {"body": "ok"}, "bad": {"body": "{"}, "nil": {"body": ""}}}]}"#
    }

    @Test func aFolder_isLoadedAgainOnceAFileChanges() throws {
        let fixtures = try TemporaryFixtures(["api/stubs.json": Self.stubs(named: "first")])
        defer { fixtures.remove() }
        #expect(try CatalogCache.catalog(of: fixtures.root).stubs.map(\.name) == ["first"])
        #expect(CatalogCache.fingerprint(of: fixtures.root) == CatalogCache.fingerprint(of: fixtures.root))
        try fixtures.write("api/stubs.json", Self.stubs(named: "second-one"))
        #expect(try CatalogCache.catalog(of: fixtures.root).stubs.map(\.name) == ["second-one"])
        try fixtures.write("api/extra.json", "{}")
        #expect(CatalogCache.fingerprint(of: fixtures.root).count == 2, "every file counts")
    }
}

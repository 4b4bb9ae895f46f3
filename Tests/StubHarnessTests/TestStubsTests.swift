import Foundation
import StubHarness
import StubServer
import StubServerInProcess
import StubServerRemote
import StubTestSupport
import TestTurns
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The handle a test body gets: the URL a client asks for a real one, on each transport, and the session.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct TestStubsTests {
    static let real = [
        "https://itunes.apple.com/search?term=jack%20johnson&limit=25",
        "https://rss.applemarketingtools.com/api/v1/us/apple-music/top-albums/all/10/explicit.json",
        "http://example.com",
        "https://www.themealdb.com/api/json/v1/1/lookup.php?i=52772#top",
    ]

    static func catalog() throws -> StubCatalog { try StubCatalog.load(from: #require(StubCatalog.findFolder())) }

    @Test(arguments: real)
    func overASocket_theRealPathAndQueryGoToTheLoopbackServer(_ real: String) async throws {
        let stubs = TestStubs(try StubServer.start(catalog: Self.catalog()))
        defer { Task { await stubs.stop() } }
        let server = try #require(stubs.server)
        let url = stubs.url(try #require(URL(string: real)))
        let parts = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
        let realParts = try #require(URLComponents(string: real))
        #expect((parts.scheme, parts.host, parts.port) == ("http", "127.0.0.1", server.port))
        #expect(parts.percentEncodedPath == realParts.percentEncodedPath)
        #expect(parts.percentEncodedQuery == realParts.percentEncodedQuery)
        #expect(parts.fragment == realParts.fragment)
        #expect(stubs.inProcess == nil && stubs.remote == nil)
    }

    @Test(arguments: [("wss://chat.example.com/live?room=1", "ws"), ("ws://chat.example.com/live?room=1", "ws")])
    func aWebSocketURL_staysOne(_ real: String, _ scheme: String) async throws {
        let stubs = TestStubs(try StubServer.start(catalog: Self.catalog()))
        defer { Task { await stubs.stop() } }
        let url = stubs.url(try #require(URL(string: real)))
        #expect(url.absoluteString == "\(scheme)://127.0.0.1:\(try #require(stubs.server).port)/live?room=1")
    }

    /// A URL a client built relative to its base is resolved first: its path is the whole one.
    @Test func aRelativeURL_isResolvedAgainstItsBase() async throws {
        let stubs = TestStubs(try StubServer.start(catalog: Self.catalog()))
        defer { Task { await stubs.stop() } }
        let base = try #require(URL(string: "https://itunes.apple.com/api/"))
        let url = stubs.url(try #require(URL(string: "search?term=a", relativeTo: base)))
        #expect(url.absoluteString == "http://127.0.0.1:\(try #require(stubs.server).port)/api/search?term=a")
    }

    @Test(arguments: real)
    func inProcess_theRealURLIsKept(_ real: String) async throws {
        let stubs = TestStubs(InProcessStubs.start(catalog: try Self.catalog()))
        defer { Task { await stubs.stop() } }
        #expect(stubs.url(try #require(URL(string: real))).absoluteString == real)
        #expect(stubs.urlSession === stubs.inProcess?.urlSession)
        #expect(stubs.server == nil && stubs.remote == nil)
    }

    @Test(arguments: [
        "http://127.0.0.1:9", "http://127.0.0.1:9/", "http://127.0.0.1:9/stubs", "http://127.0.0.1:9/stubs/",
    ])
    func remote_theRealPathGoesUnderTheRemotesURL(_ remote: String) async throws {
        let stubs = TestStubs(RemoteStubs(url: try #require(URL(string: remote))))
        defer { Task { await stubs.stop() } }
        let prefix = remote.hasSuffix("/") ? String(remote.dropLast()) : remote
        #expect(
            stubs.url(try #require(URL(string: "https://itunes.apple.com/search?term=a"))).absoluteString
                == prefix + "/search?term=a")
        #expect(stubs.remote != nil && stubs.server == nil)
    }

    /// The control operations reach the stubs held, and `stop` stops them.
    @Test func theControl_isTheStubsOwn() async throws {
        let server = try StubServer.start(catalog: Self.catalog())
        let stubs = TestStubs(server)
        try await stubs.setVariant("bad", forStub: "top-albums")
        #expect(server.variant(forStub: "top-albums") == "bad")
        try await stubs.setVariant("nil")
        #expect(try await stubs.serverVariant == "nil")
        #expect(try await stubs.requestCount() == 0)
        await stubs.stop()
        #expect(server.hasStopped)
    }
}

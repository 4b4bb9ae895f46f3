import Foundation
import StubServerTesting
import TestTurns
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A test body written once against `TestStubs`: run by the `.stubServer` trait over a socket and in process,
/// changing only the trait's transport, it passes both times and the client reads the same bytes.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct OneBodyTests {
    /// What the body saw: each answer's status and bytes, and the variants the journal recorded.
    struct Seen: Equatable, Sendable {
        var answers: [(status: Int, body: Data)]
        var variants: [String?]

        static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.variants == rhs.variants
                && lhs.answers.map(\.status) == rhs.answers.map(\.status)
                && lhs.answers.map(\.body) == rhs.answers.map(\.body)
        }
    }

    /// The app's real host, and its URL for the albums feed, as its client would build it.
    static let host = "https://rss.applemarketingtools.com"
    static let albums = URL(string: host + "/api/v1/us/apple-music/top-albums/all/10/explicit.json")!

    /// The body: the client gets its session and URL from the stubs, the test steers and asks them.
    static func body() async throws -> Seen {
        let stubs = try TestStubs.required()
        var answers: [(status: Int, body: Data)] = []
        for variant in ["good", "server-error", "nil"] {
            try await stubs.setVariant(variant, forStub: "top-albums")
            let (data, response) = try await stubs.urlSession.data(from: stubs.url(albums))
            // The feed's links are templated (`{{baseURL}}`): they point where the client asked, which
            // `url(_:)` says; read back as the real host's, they are the app's.
            let asked = stubs.url(URL(string: host)!).absoluteString
            let links = String(decoding: data, as: UTF8.self).replacingOccurrences(of: asked, with: host)
            answers.append((try #require(response as? HTTPURLResponse).statusCode, Data(links.utf8)))
        }
        await expectRequests(JournalQuery(stub: "top-albums"), count: 3)
        let variants = try await stubs.journal(JournalQuery(stub: "top-albums")).map(\.variant)
        return Seen(answers: answers, variants: variants)
    }

    /// Runs `body` inside the `.stubServer` trait given, as the trait runs a test.
    static func run(_ trait: StubServerTrait) async throws -> Seen {
        actor Box {
            var seen: Seen?
            func keep(_ seen: Seen) { self.seen = seen }
        }
        let test = try #require(Test.current)
        let box = Box()
        try await #require(trait.scopeProvider(for: test, testCase: Test.Case.current))
            .provideScope(for: test, testCase: Test.Case.current) { await box.keep(try await body()) }
        return try #require(await box.seen)
    }

    @Test func theSameBody_passesOverBothTransports_andReadsTheSameBytes() async throws {
        let overASocket = try await Self.run(.stubServer(transport: .socket))
        let inProcess = try await Self.run(.stubServer(transport: .inProcess))
        #expect(overASocket == inProcess)
        #expect(overASocket.answers.map(\.status) == [200, 503, 200])
        #expect(overASocket.answers[0].body.count > 1_000 && overASocket.answers[2].body.isEmpty)
        #expect(overASocket.variants == ["good", "server-error", "nil"])
    }
}

import Foundation
import Locking
import StubServer
import StubServerTesting
import StubTestSupport
import TestTurns
import Testing

let albumsPath = "/api/v1/us/apple-music/top-albums/all/100/explicit.json"

/// The trait on a suite: every test, and every case of a parameterised test, gets a fresh server.
@Suite(.takesTurns, .timeLimit(.minutes(1)), .stubServer(variants: ["top-albums": "server-error"]))
struct StubServerTraitTests {
    @Test func theTrait_startsAServerWithTheChosenVariants() async throws {
        let server = try #require(TestStubs.current?.server)
        #expect(server.baseURL.host == "127.0.0.1")
        #expect(try await get(albumsPath, from: server).status == 503)
        await expectRequests(JournalQuery(variant: "server-error", method: "GET", path: albumsPath))
    }

    /// A transport's configuration is the test's, and its variant stays: the trait chooses one only when given.
    @Test(.stubServer(transport: .socket(StubServer.Configuration(variant: "nil"))))
    func aTransportsConfiguration_keepsItsVariant() async throws {
        let server = try #require(TestStubs.current?.server)
        #expect(server.serverVariant == "nil")
        #expect(server.variant(forStub: "top-albums") == "server-error")
    }

    @Test(arguments: [1, 2, 3])
    func eachCase_getsItsOwnServer(_ requests: Int) async throws {
        let server = try #require(TestStubs.current?.server)
        #expect(server.requestCount() == 0)
        for _ in 0..<requests { _ = try await get(albumsPath, from: server) }
        await expectRequests(JournalQuery(path: albumsPath), count: requests)
    }

    /// The suite's trait and the test's start one server, the test's settings over the suite's: its server-wide
    /// variant, beside the suite's per-stub one (which answers first, as a per-stub choice does).
    @Test(.stubServer(variant: "nil")) func aSuiteAndATestTrait_startOneServer_withTheTestsSettingsOverTheSuites()
        async throws
    {
        let test = try #require(Test.current)
        let traits = test.traits.compactMap { $0 as? StubServerTrait }
        #expect(traits.count == 2, "the suite's trait and the test's")
        #expect(traits.compactMap { $0.scopeProvider(for: test, testCase: Test.Case.current) }.count == 1)
        let server = try #require(TestStubs.current?.server)
        #expect(server.serverVariant == "nil")
        #expect(server.variant(forStub: "top-albums") == "server-error")
        #expect(try await get(albumsPath, from: server).status == 503)
        #expect(try await get("/api/json/v1/1/filter.php?c=Dessert", from: server).body.isEmpty, "nil, server-wide")
    }

}

/// A test's trait that names no folder serves the suite's.
@Suite(.takesTurns, .timeLimit(.minutes(1)), .stubServer(fixtures: "BundledFixtures"))
struct AFolderOfItsOwn {
    @Test(.stubServer(variants: ["bundled": "nil"])) func aTestsTrait_servesTheSuitesFolder() async throws {
        let server = try #require(TestStubs.current?.server)
        #expect(server.catalog.root?.lastPathComponent == "BundledFixtures")
        #expect(server.variant(forStub: "bundled") == "nil")
        #expect(try await get("/bundled", from: server).body.isEmpty)
    }
}

/// Strictness and verification, driven through the trait's own scope so that the issues it records can be
/// checked with `withKnownIssue`.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct StubServerStrictnessTests {
    private func comments(_ issue: Issue) -> String {
        issue.comments.map(\.rawValue).joined(separator: "\n")
    }

    /// A strict trait and an unmatched request the test expects: reported inside `withKnownIssue`, it is a known
    /// issue, and the trait does not report it again when the test ends.
    @Test(.stubServer()) func anUnmatchedRequestTheTestExpects_isAKnownIssueOnly() async throws {
        let server = try #require(TestStubs.current?.server)
        #expect(try await get(albumsPath + "x", from: server).status == 404)
        await withKnownIssue {
            await expectNoUnmatchedRequests()
        } matching: { issue in
            comments(issue).contains("no stub matched GET \(albumsPath)x")
        }
    }

    @Test func outsideTheTrait_thereIsNoServer() {
        #expect(TestStubs.current == nil)
        #expect(throws: TestStubsError.noCurrentStubs) { try TestStubs.required() }
        #expect(TestStubsError.noCurrentStubs.description.contains("add .stubServer(...) to the test or its suite"))
    }

    @Test func anUnmatchedRequest_failsTheTestWithTheClosestStubs() async throws {
        let test = try #require(Test.current)
        try await withKnownIssue {
            try await StubServerTrait.stubServer().provideScope(for: test, testCase: Test.Case.current) {
                let server = try #require(TestStubs.current?.server)
                #expect(try await get(albumsPath + "x", from: server).status == 404)
            }
        } matching: { issue in
            let text = comments(issue)
            return text.contains("no stub matched GET \(albumsPath)x (answered 404); closest stubs:")
                && text.contains("top-albums (albums/stubs.json): path expected")
                && issue.sourceLocation == test.sourceLocation
        }
    }

    @Test func unmatchedAllow_letsUnmatchedRequestsPass() async throws {
        let test = try #require(Test.current)
        try await StubServerTrait.stubServer(unmatched: .allow).provideScope(for: test, testCase: Test.Case.current) {
            let server = try #require(TestStubs.current?.server)
            #expect(try await get("/nowhere", from: server).status == 404)
        }
    }

    @Test func expectRequests_namesTheClosestRequestsFieldByField() async throws {
        let test = try #require(Test.current)
        try await StubServerTrait.stubServer().provideScope(for: test, testCase: Test.Case.current) {
            let server = try #require(TestStubs.current?.server)
            _ = try await get(albumsPath + "?limit=5", from: server)
            await withKnownIssue {
                await expectRequests(
                    JournalQuery(method: "GET", path: albumsPath, query: ["limit": "10", "term": "a b"]))
            } matching: { issue in
                comments(issue)
                    == "expected 1 GET \(albumsPath)?limit=10&term=a+b, got 0; closest requests:\n"
                    + "  GET \(albumsPath)?limit=5 -> top-albums good 200: query.limit: expected \"10\", got \"5\"; "
                    + "query.term: expected \"a b\", got none"
            }
            await withKnownIssue {
                await expectRequests(JournalQuery(path: albumsPath), count: 0)
            } matching: { issue in
                comments(issue).hasPrefix("expected 0 any method \(albumsPath), got 1:\n  GET ")
            }
        }
    }

    @Test func expectNoUnmatchedRequests_reportsEachOne() async throws {
        let test = try #require(Test.current)
        try await StubServerTrait.stubServer(unmatched: .allow).provideScope(for: test, testCase: Test.Case.current) {
            let server = try #require(TestStubs.current?.server)
            _ = try await get("/a", from: server)
            _ = try await get("/b", from: server)
            let reported = Lock<[String]>([])
            await withKnownIssue {
                await expectNoUnmatchedRequests()
            } matching: { issue in
                let text = comments(issue)
                reported.withLock { $0.append(text) }
                return true
            }
            let reports = reported.withLock { $0 }
            #expect(reports.count == 2)
            #expect(reports.first?.hasPrefix("no stub matched GET /a (answered 404)") == true)
        }
    }

    @Test func missingFixtures_sayWhereTheyWereLookedFor() async throws {
        let test = try #require(Test.current)
        await #expect(throws: StubServerTestingError.fixturesNotFound("NoSuchFolder", from: #filePath)) {
            try await StubServerTrait.stubServer(fixtures: "NoSuchFolder").provideScope(
                for: test, testCase: Test.Case.current
            ) {}
        }
    }
}

import Foundation
import StubServer
import StubServerInProcess
import StubServerTesting
import TestTurns
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The albums feed at its real host, fetched through the running test's in-process server.
private func fetchAlbums(_ suffix: String = "") async throws -> (status: Int?, body: Data) {
    let stubs = try #require(TestStubs.current?.inProcess)
    let url = URL(string: "https://rss.applemarketingtools.com\(albumsPath)\(suffix)")!
    let (data, response) = try await stubs.urlSession.data(from: url)
    return ((response as? HTTPURLResponse)?.statusCode, data)
}

/// The in-process trait on a suite: every test gets a fresh server, reached through its session at the real host.
@Suite(
    .takesTurns, .timeLimit(.minutes(1)), .stubServer(transport: .inProcess, variants: ["top-albums": "server-error"]))
struct InProcessStubsTraitTests {
    @Test func theTrait_startsAServerWithTheChosenVariants() async throws {
        #expect(try await fetchAlbums().status == 503)
        #expect(TestStubs.current?.server == nil)
        #expect(TestStubs.current?.inProcess != nil)
        await expectRequests(JournalQuery(variant: "server-error", method: "GET", path: albumsPath))
    }

    @Test(arguments: [1, 2])
    func eachCase_getsItsOwnServer(_ requests: Int) async throws {
        #expect(try #require(TestStubs.current?.inProcess).requestCount(JournalQuery()) == 0)
        for _ in 0..<requests { _ = try await fetchAlbums() }
        await expectRequests(JournalQuery(path: albumsPath), count: requests)
    }

    /// The suite's trait and the test's start one server, the test's settings over the suite's.
    @Test(.stubServer(variant: "nil")) func aSuiteAndATestTrait_startOneServer() async throws {
        let test = try #require(Test.current)
        let traits = test.traits.compactMap { $0 as? StubServerTrait }
        #expect(traits.compactMap { $0.scopeProvider(for: test, testCase: Test.Case.current) }.count == 1)
        let stubs = try #require(TestStubs.current?.inProcess)
        #expect(stubs.serverVariant == "nil")
        #expect(stubs.variant(forStub: "top-albums") == "server-error")
        #expect(try await fetchAlbums().status == 503)
    }
}

@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct InProcessStubsStrictnessTests {
    @Test func outsideTheTrait_thereIsNoServer() {
        #expect(TestStubs.current == nil)
        #expect(throws: TestStubsError.noCurrentStubs) { try TestStubs.required() }
    }

    @Test func anUnmatchedRequest_failsTheTestWithTheClosestStubs() async throws {
        let test = try #require(Test.current)
        try await withKnownIssue {
            try await StubServerTrait.stubServer(transport: .inProcess).provideScope(
                for: test, testCase: Test.Case.current
            ) {
                let answer = try await fetchAlbums("x")
                #expect(answer.status == 404)
            }
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined(separator: "\n")
            return text.contains("no stub matched GET \(albumsPath)x (answered 404); closest stubs:")
                && text.contains("top-albums (albums/stubs.json): path expected")
                && text.contains("(strict .stubServer: pass unmatched: .allow to permit unmatched requests)")
                && issue.sourceLocation == test.sourceLocation
        }
    }

    @Test func unmatchedAllow_letsUnmatchedRequestsPass() async throws {
        let test = try #require(Test.current)
        try await StubServerTrait.stubServer(transport: .inProcess, unmatched: .allow).provideScope(
            for: test, testCase: Test.Case.current
        ) {
            let answer = try await fetchAlbums("x")
            #expect(answer.status == 404)
        }
    }
}

import Foundation
import StubCore
import StubTestSupport
import TestTurns
import Testing

@testable import StubServerInProcess

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The package's `MockData/` folder.
let mockData = StubCatalog.findFolder()!

@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct InProcessStubsTests {
    static let search = URL(string: "https://itunes.apple.com/search?term=jack+johnson&offset=0&limit=25")!

    @Test func aRealHTTPSURL_getsTheFixtureByteForByte() async throws {
        let stubs = InProcessStubs.start(catalog: try await MockData.catalog())
        let (data, response) = try await stubs.urlSession.data(from: Self.search)
        await stubs.stop()
        let fixture = try Data(contentsOf: mockData.appendingPathComponent("itunes-search/jack-johnson.0.json"))
        #expect(data == fixture)
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 200)
        #expect(http.url == Self.search)
        #expect(http.value(forHTTPHeaderField: "X-Stub-Name") == "jack-johnson-page-1")
        #expect(http.value(forHTTPHeaderField: "Content-Length") == String(fixture.count))
        #expect(stubs.journal().map(\.stub) == ["jack-johnson-page-1"])
    }

    /// A folder with `hosts` answers only those hosts in process; the 404 names the host it expected.
    @Test func aHostNoFolderAnswers_isUnmatched_andTheNearMissNamesTheHost() async throws {
        let stubs = InProcessStubs.start(catalog: try await MockData.catalog())
        let elsewhere = URL(string: "https://example.com/search?term=jack+johnson&offset=0&limit=25")!
        let (data, response) = try await stubs.urlSession.data(from: elsewhere)
        await stubs.stop()
        #expect((response as? HTTPURLResponse)?.statusCode == 404)
        let body = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let closest = try #require(body["closest"] as? [[String: Any]])
        let first = try #require(closest.first?["mismatches"] as? [[String: String]])
        #expect(first == [["field": "host", "expected": "itunes.apple.com", "actual": "example.com"]])
        #expect(stubs.unmatchedRequests().map(\.target) == ["/search?term=jack+johnson&offset=0&limit=25"])
    }

    /// Each server answers only the sessions made from its own configuration, whatever runs beside it.
    @Test func manyServersAtOnce_eachSessionReachesItsOwn() async throws {
        let catalog = try await MockData.catalog()
        let servers = (0..<4).map { _ in InProcessStubs.start(catalog: catalog) }
        try servers[2].setVariant("empty", forStub: "jack-johnson-page-1")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, server) in servers.enumerated() {
                group.addTask {
                    for _ in 0...index { _ = try await server.urlSession.data(from: Self.search) }
                }
            }
            try await group.waitForAll()
        }
        #expect(servers.map { $0.requestCount(JournalQuery()) } == [1, 2, 3, 4])
        #expect(servers.map { $0.journal(JournalQuery()).last?.variant } == ["good", "good", "empty", "good"])
        for server in servers { await server.stop() }
    }

    @Test func stop_endsAnswersUnderWay_andLaterRequestsCannotConnect() async throws {
        // An answer that never comes (not a slow one, which a stalled test could see finish before the stop).
        var hang = StubVariant()
        hang.fault = .hang
        let stubs = InProcessStubs.start(
            catalog: try StubCatalog(stubs: [
                Stub(
                    name: "search", request: RequestPattern(path: PathPattern("/search")),
                    variants: ["good": hang, "bad": StubVariant(), "nil": StubVariant()])
            ]))
        let session = URLSession(configuration: stubs.sessionConfiguration)
        let pending = Task { try await session.data(from: Self.search) }
        let deadline = ContinuousClock.now + .seconds(60)
        while stubs.requestCount(JournalQuery()) == 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(2))
        }
        try #require(stubs.requestCount(JournalQuery()) == 1, "the request arrives within a minute")
        await stubs.stop()
        #expect(stubs.hasStopped)
        await #expect {
            try await pending.value
        } throws: {
            ($0 as? URLError)?.code == .networkConnectionLost
        }
        await #expect {
            try await session.data(from: Self.search)
        } throws: {
            ($0 as? URLError)?.code == .cannotConnectToHost
        }
    }

    @Test func theSharedSession_isInterceptedOnApplePlatformsOnly() async throws {
        let stubs = InProcessStubs.start(catalog: try await MockData.catalog())
        defer { Task { await stubs.stop() } }
        #if canImport(FoundationNetworking)
            #expect(throws: InProcessStubsError.sharedSessionNotInterceptable) { try stubs.interceptSharedSession() }
        #else
            try stubs.interceptSharedSession()
            let other = InProcessStubs.start(catalog: try await MockData.catalog())
            #expect(throws: InProcessStubsError.sharedSessionTaken) { try other.interceptSharedSession() }
            await other.stop()
            let (data, _) = try await URLSession.shared.data(from: Self.search)
            #expect(!data.isEmpty)
            #expect(stubs.requestCount(JournalQuery()) == 1)
            stubs.stopInterceptingSharedSession()
        #endif
    }

    /// The type that names a server spells its number in binary, for any number.
    @Test(arguments: [0, 1, 2, 5, 6, 255, 1_000, 65_537])
    func aServerTag_spellsItsNumber(_ number: Int) {
        #expect(Zero.tag(for: number).number == number)
    }
}

/// A body given as a stream (URLSession moves a data task's body there on Apple platforms) is read, up to the
/// configured limit; one byte over it is the socket server's 413.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct InProcessRequestBodyTests {
    static func post(_ body: String) -> URLRequest {
        var request = URLRequest(url: URL(string: "https://itunes.apple.com/search?term=jack+johnson")!)
        request.httpMethod = "POST"
        request.httpBodyStream = InputStream(data: Data(body.utf8))
        return request
    }

    @Test func aBodyStream_isRead_andOneByteOverTheLimitIs413() async throws {
        let stubs = try InProcessStubs.start(
            fixtures: mockData, configuration: InProcessStubs.Configuration(maxBodyBytes: 8))
        let (_, allowed) = try await stubs.urlSession.data(for: Self.post("12345678"))
        #expect((allowed as? HTTPURLResponse)?.statusCode == 404, "no stub takes this POST")
        #expect(stubs.journal(JournalQuery()).first?.body == Data("12345678".utf8))
        let (data, refused) = try await stubs.urlSession.data(for: Self.post("123456789"))
        #expect((refused as? HTTPURLResponse)?.statusCode == 413)
        #expect(String(decoding: data, as: UTF8.self).contains("request body of more than 8 bytes exceeds the limit"))
        #expect(stubs.requestCount(JournalQuery()) == 1, "a refused body is not journaled, as by the socket server")
        await stubs.stop()
    }
}

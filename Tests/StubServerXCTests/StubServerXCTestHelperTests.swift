import Foundation
import StubServer
import StubServerInProcess
import StubServerXCTest
import StubTestSupport
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The XCTest helper, and the server end to end through URLSession, as XCTest users write it.
final class StubServerXCTestHelperTests: XCTestCase {
    private var mockData: URL {
        get throws { try XCTUnwrap(StubCatalog.findFolder()) }
    }

    private func albumsURL(_ server: StubServer) -> URL {
        server.baseURL.appendingPathComponent("/api/v1/us/apple-music/top-albums/all/100/explicit.json")
    }

    private func session() -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 5
        return URLSession(configuration: configuration)
    }

    func testStartStubServer_servesOnAnEphemeralLoopbackPort() async throws {
        let stubs = try await startStubServer(transport: .socket, fixtures: mockData)
        let server = try XCTUnwrap(stubs.server)
        XCTAssertEqual(server.baseURL.host, "127.0.0.1")
        XCTAssertNotEqual(server.port, 0)
        let (data, response) = try await session().data(from: albumsURL(server))
        let http = try XCTUnwrap(response as? HTTPURLResponse)
        XCTAssertEqual(http.statusCode, 200)
        XCTAssertEqual(http.value(forHTTPHeaderField: "X-Stub-Name"), "top-albums")
        let feed = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertNotNil(feed["feed"])
    }

    func testStartStubServer_perStubVariantsReachURLSession() async throws {
        let stubs = try await startStubServer(transport: .socket, fixtures: mockData)
        let server = try XCTUnwrap(stubs.server)
        for (variant, status) in [("server-error", 503), ("nil", 200), ("good", 200)] {
            try server.setVariant(variant, forStub: "top-albums")
            let (data, response) = try await session().data(from: albumsURL(server))
            XCTAssertEqual((response as? HTTPURLResponse)?.statusCode, status, variant)
            XCTAssertEqual(variant == "nil", data.isEmpty, variant)
        }
        XCTAssertEqual(
            server.journal(JournalQuery(stub: "top-albums")).compactMap(\.variant), ["server-error", "nil", "good"])
    }

    func testStartInProcessStubs_answersTheRealHTTPSURL_andXCTAssertRequestedTakesIt() async throws {
        let stubs = try await startStubServer(transport: .inProcess, fixtures: mockData)
        try await stubs.setVariant("server-error", forStub: "top-albums")
        let url = try XCTUnwrap(
            URL(string: "https://rss.applemarketingtools.com/api/v1/us/apple-music/top-albums/all/100/explicit.json"))
        let (_, response) = try await stubs.urlSession.data(from: url)
        XCTAssertEqual((response as? HTTPURLResponse)?.statusCode, 503)
        await XCTAssertRequested(stubs, JournalQuery(stub: "top-albums", variant: "server-error"))
    }

    /// A server that must have stopped by `tearDown`, which XCTest runs after the teardown blocks. (Its port
    /// is not probed: a parallel test may already have bound it.)
    private var serverStoppedByTeardown: StubServer?

    func testStartStubServer_isStoppedAtTeardown() async throws {
        serverStoppedByTeardown = try await startStubServer(transport: .socket, fixtures: mockData).server
        XCTAssertEqual(serverStoppedByTeardown?.hasStopped, false)
    }

    override func tearDown() async throws {
        if let server = serverStoppedByTeardown {
            XCTAssertTrue(server.hasStopped, "the server still runs after its teardown block")
            XCTAssertEqual(server.openConnections, 0)
        }
        try await super.tearDown()
    }

    func testStartStubServer_reportsInvalidFixtures() async throws {
        let fixtures = try TemporaryFixtures([
            "api/stubs.json": #"{"stubs": [{"name": "a", "request": {"path": "/a"}, "variants": {"good": {}}}]}"#
        ])
        defer { fixtures.remove() }
        do {
            _ = try await startStubServer(transport: .socket, fixtures: fixtures.root)
            XCTFail("invalid fixtures were served")
        } catch {
            XCTAssertEqual(
                (error as? CatalogError)?.problems.map(\.description),
                ["api/stubs.json: stubs[0].variants: missing required variants bad, nil"])
        }
    }

    /// The starter names the test in its server's coverage records as `swift test --xunit-output` does.
    func testTheStarter_namesTheTestInItsCoverageRecords() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coverage-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let stubs = try await startStubServer(
            transport: .socket(StubServer.Configuration(coverage: folder)), fixtures: mockData)
        let server = try XCTUnwrap(stubs.server)
        _ = try await session().data(from: albumsURL(server))
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        XCTAssertEqual(files.count, 1)
        let line = try XCTUnwrap(FileManager.default.contents(atPath: folder.appendingPathComponent(files[0]).path))
        let record = try XCTUnwrap(JSONSerialization.jsonObject(with: line) as? [String: Any])
        XCTAssertEqual(
            record["test"] as? String,
            "StubServerXCTests.StubServerXCTestHelperTests/testTheStarter_namesTheTestInItsCoverageRecords")
        XCTAssertEqual(record["stub"] as? String, "top-albums")
    }
}

import Foundation
import StubServerXCTest
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A test body written once against the starter's `TestStubs`: over a socket and in process, changing only the
/// starter's transport, it passes both times and the client reads the same bytes.
final class OneBodyXCTests: XCTestCase {
    static let host = "https://rss.applemarketingtools.com"

    /// The body: each answer's status and bytes (the feed's templated links read back as the real host's).
    private func body<Stubs: StubControl>(_ transport: StubTransport<Stubs>) async throws -> [String] {
        let stubs = try await startStubServer(transport: transport, variants: ["top-albums": "server-error"])
        let albums = try XCTUnwrap(URL(string: Self.host + "/api/v1/us/apple-music/top-albums/all/10/explicit.json"))
        var seen: [String] = []
        for variant in ["server-error", "good"] {
            if variant == "good" { try await stubs.setVariant(variant, forStub: "top-albums") }
            let (data, response) = try await stubs.urlSession.data(from: stubs.url(albums))
            let asked = stubs.url(try XCTUnwrap(URL(string: Self.host))).absoluteString
            let status = try XCTUnwrap(response as? HTTPURLResponse).statusCode
            seen.append(
                "\(status) " + String(decoding: data, as: UTF8.self).replacingOccurrences(of: asked, with: Self.host))
        }
        await XCTAssertRequested(stubs, JournalQuery(stub: "top-albums"), count: 2)
        return seen
    }

    func testTheSameBody_passesOverBothTransports_andReadsTheSameBytes() async throws {
        let overASocket = try await body(.socket)
        let inProcess = try await body(.inProcess)
        XCTAssertEqual(overASocket, inProcess)
        XCTAssertEqual(overASocket.map { $0.prefix(4) }, ["503 ", "200 "])
        XCTAssertGreaterThan(overASocket.last?.count ?? 0, 1_000)
    }
}

import Foundation
import StubServer
import StubServerTesting
import StubTestSupport
import TestTurns
import Testing

/// Fixtures that reach the test as its bundle's resources (`resources: [.copy("BundledFixtures")]`), as they
/// must on a device, where the folder beside the test file does not exist.
@Suite(
    .takesTurns,
    .timeLimit(.minutes(1)),
    .stubServer(fixtures: Bundle.module.url(forResource: "BundledFixtures", withExtension: nil)!))
struct BundledFixturesTests {
    @Test func aBundledFolder_isServed() async throws {
        let server = try #require(TestStubs.current?.server)
        let client = try await RawHTTPClient(port: server.port)
        try await client.send("GET /bundled HTTP/1.1\r\nHost: t\r\n\r\n")
        let answer = try await client.readResponse()
        #expect(answer.status == 200)
        #expect(answer.text == "served from the test bundle")
        #expect(server.catalog.root?.lastPathComponent == "BundledFixtures")
    }
}

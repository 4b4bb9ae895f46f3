import Foundation
import RawHTTPClient
import StubServer
import StubServerTesting
import Testing

/// Fixtures that reach the test as its bundle's resources (`resources: [.copy("BundledFixtures")]`), as they
/// must on a device, where the folder beside the test file does not exist.
@Suite(.stubServer(fixtures: Bundle.module.url(forResource: "BundledFixtures", withExtension: nil)!))
struct BundledFixturesTests {
    @Test func aBundledFolder_isServed() async throws {
        let server = try StubServer.required()
        let answer = try await blocking { [port = server.port] in
            let client = try RawHTTPClient(port: port)
            try client.send("GET /bundled HTTP/1.1\r\nHost: t\r\n\r\n")
            return try client.readResponse()
        }
        #expect(answer.status == 200)
        #expect(answer.text == "served from the test bundle")
        #expect(server.catalog.root?.lastPathComponent == "BundledFixtures")
    }
}

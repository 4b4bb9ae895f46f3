import Foundation
import StubTestSupport
import TestTurns
import Testing

@testable import StubCore
@testable import StubServer

/// Secrets never reach the journal: not its entries, not the admin API's JSON.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct JournalRedactionTests {
    @Test func secretHeadersAndQueryParameters_areRedacted() async throws {
        let configuration = StubServer.Configuration(
            idleTimeout: testServerTimeout, redaction: Redaction(headers: ["X-Api-Key"], query: ["token"]))
        try await withTestServer(configuration) { server, _ in
            let response = try await exchange(
                server,
                get(
                    "/albums/1?token=s3cret-q&term=jack+johnson&tok%65n=s3cret-e",
                    "Authorization: Bearer s3cret-a\r\nCookie: id=s3cret-c\r\nx-api-key: s3cret-k\r\nAccept: */*\r\n"))
            #expect(response.status == 200)
            let entry = try #require(server.journal().first)
            #expect(entry.header("Authorization") == "REDACTED")
            #expect(entry.header("Cookie") == "REDACTED")
            #expect(entry.header("X-Api-Key") == "REDACTED")
            #expect(entry.header("Accept") == "*/*")
            #expect(entry.query.map(\.value) == ["REDACTED", "jack johnson", "REDACTED"])
            #expect(entry.target == "/albums/1?token=REDACTED&term=jack+johnson&tok%65n=REDACTED")
            let page = try await exchange(server, get("/__stub/journal")).text
            #expect(!page.contains("s3cret"), "\(page)")
        }
    }

    @Test func withoutConfiguration_onlyTheStandardSecretsAreRedacted() async throws {
        try await withTestServer { server, _ in
            _ = try await exchange(server, get("/albums/1?token=visible", "Proxy-Authorization: Basic x\r\n"))
            let entry = try #require(server.journal().first)
            #expect(entry.header("Proxy-Authorization") == "REDACTED")
            #expect(entry.target == "/albums/1?token=visible")
        }
    }
}

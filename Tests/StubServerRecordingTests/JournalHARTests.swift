import Foundation
import StubCore
import StubServer
import StubServerRecording
import StubTestSupport
import TestTurns
import Testing

/// The journal as an HTTP Archive, the evidence a failed strict check attaches: every request as it came, its
/// answer's status, and what answered it or came closest; a document the package's own HAR importer reads back.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct JournalHARTests {
    @Test func aJournal_becomesAHARThatTheImporterReadsBack() async throws {
        let stubs = #"""
            {"stubs": [{"name": "item", "request": {"path": "/items/{id}"},
              "variants": {"good": {"body": "one"}, "bad": {"body": "{"}, "nil": {"body": ""}}}]}
            """#
        let fixtures = try TemporaryFixtures(["api/stubs.json": stubs])
        defer { fixtures.remove() }
        let server = try StubServer.start(fixtures: fixtures.root)
        _ = try await get("/items/1?color=a%20b", from: server)
        let client = try await RawHTTPClient(port: server.port)
        try await client.send(
            "POST /itemz HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nContent-Type: application/json\r\n"
                + "Content-Length: 9\r\nConnection: close\r\n\r\n{\"n\": 1}\n")
        _ = await client.readToEnd()
        let journal = server.journal()
        await server.stop()

        let text = JournalHAR.document(journal, origin: server.baseURL.absoluteString)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let log = try #require(document["log"] as? [String: Any])
        #expect(log["version"] as? String == "1.2")
        let entries = try #require(log["entries"] as? [[String: Any]])
        #expect(entries.count == 2)
        let first = try #require(entries.first?["request"] as? [String: Any])
        #expect(first["url"] as? String == "http://127.0.0.1/items/1?color=a%20b", "at the Host the client named")
        #expect((first["queryString"] as? [[String: String]]) == [["name": "color", "value": "a b"]])
        #expect((entries[0]["response"] as? [String: Any])?["status"] as? Int == 200)
        #expect((entries[0]["comment"] as? String)?.hasPrefix("GET /items/1?color=a%20b -> item good 200") == true)
        let second = try #require(entries[1]["request"] as? [String: Any])
        #expect((second["postData"] as? [String: String]) == ["mimeType": "application/json", "text": "{\"n\": 1}\n"])
        #expect(second["bodySize"] as? Int == 9)
        #expect((entries[1]["response"] as? [String: Any])?["status"] as? Int == 404)
        #expect((entries[1]["comment"] as? String)?.contains("closest: item (api/stubs.json): ") == true)

        let imported = try TemporaryFixtures()
        defer { imported.remove() }
        let names = try await HARImporter(fixtures: imported.root).importHAR(Data(text.utf8))
        #expect(names.count == 2)
        let catalog = try StubCatalog.load(from: imported.root)
        #expect(Set(catalog.stubs.map(\.request.path.description)) == ["/items/1", "/itemz"])
    }

    @Test func anEmptyJournal_isAnEmptyLog() throws {
        let text = JournalHAR.document([])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(((document["log"] as? [String: Any])?["entries"] as? [Any])?.isEmpty == true)
    }
}

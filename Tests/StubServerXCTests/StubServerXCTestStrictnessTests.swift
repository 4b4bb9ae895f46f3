import Foundation
import RawHTTPClient
import StubServer
import StubServerXCTest
import XCTest

#if !canImport(Darwin)
    /// Strict teardown and `XCTAssertRequested`: their failures are captured here to check their messages.
    final class StubServerXCTestStrictnessTests: XCTestCase {
        private var captured: [(message: String, line: Int)] = []
        private var capturing = false
        private var startLine = 0

        override func recordFailure(
            withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
        ) {
            if capturing {
                captured.append((description, lineNumber))
            } else {
                super.recordFailure(
                    withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
            }
        }

        private var mockData: URL {
            get throws { try XCTUnwrap(StubCatalog.findFolder()) }
        }

        private func get(_ target: String, from server: StubServer) throws -> RawResponse {
            let client = try RawHTTPClient(port: server.port)
            try client.send("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            return try client.readResponse()
        }

        func testUnmatchedRequests_failAtTeardownWithTheClosestStubs() throws {
            // Teardown blocks run last-added first: this check runs after the server's own block.
            addTeardownBlock { [self] in
                capturing = false
                XCTAssertEqual(captured.count, 1)
                XCTAssertTrue(captured.first?.message.contains("no stub matched GET /nowhere (answered 404)") == true)
                XCTAssertTrue(captured.first?.message.contains("closest stubs:") == true)
                XCTAssertEqual(captured.first?.line, startLine, "reported where the server was started")
            }
            capturing = true
            startLine = #line + 1
            let server = try startStubServer(fixtures: mockData)
            XCTAssertEqual(try get("/nowhere", from: server).status, 404)
        }

        func testUnmatchedAllow_passes() throws {
            let server = try startStubServer(fixtures: mockData, unmatched: .allow)
            XCTAssertEqual(try get("/nowhere", from: server).status, 404)
        }

        func testXCTAssertRequested_passesOnTheCountAndFailsWithTheClosestRequests() throws {
            let server = try startStubServer(fixtures: mockData)
            let albums = "/api/v1/us/apple-music/top-albums/all/100/explicit.json"
            _ = try get(albums + "?limit=5", from: server)
            XCTAssertRequested(server, JournalQuery(method: "GET", path: albums))
            capturing = true
            XCTAssertRequested(server, JournalQuery(path: albums, query: ["limit": "10"]))
            capturing = false
            XCTAssertEqual(captured.count, 1)
            let expected =
                "expected 1 any method \(albums)?limit=10, got 0; closest requests:\n"
                + "  GET \(albums)?limit=5 -> top-albums good 200: query.limit: expected \"10\", got \"5\""
            XCTAssertTrue(captured.first?.message.hasSuffix(expected) == true, captured.first?.message ?? "none")
        }
    }
#endif

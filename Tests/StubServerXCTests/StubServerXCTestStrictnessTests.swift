import Foundation
import StubServer
import StubServerXCTest
import StubTestSupport
import XCTest

/// Strict teardown and `XCTAssertRequested`: the failures they record are expected here, and their messages and
/// lines checked. Apple's XCTest matches them with `XCTExpectFailure` (its `issueMatcher` sees each issue's
/// `compactDescription` and `sourceCodeContext.location`: developer.apple.com/documentation/xctest/
/// xctexpectfailure(_:enabled:strict:failingblock:issuematcher:)); swift-corelibs-xctest has no `XCTExpectFailure`,
/// so there the failures are captured by overriding `recordFailure`.
final class StubServerXCTestStrictnessTests: XCTestCase {
    private var mockData: URL {
        get throws { try XCTUnwrap(StubCatalog.findFolder()) }
    }

    func testUnmatchedRequests_failAtTeardownWithTheClosestStubs() async throws {
        let startLine = #line + 7
        expectOneFailureByTheEnd { message, line in
            message.contains("no stub matched GET /nowhere (answered 404)")
                && message.contains("closest stubs:")
                // Reported where the server was started.
                && line == startLine
        }
        let stubs = try await startStubServer(transport: .socket, fixtures: mockData)
        let server = try XCTUnwrap(stubs.server)
        let answer = try await get("/nowhere", from: server)
        XCTAssertEqual(answer.status, 404)
    }

    /// Stubs in another process (here a server started apart, reached only through its admin API): reset for
    /// the test, and what they could not match fails it at teardown, as for a server the test started.
    func testARemoteTransport_resetsThem_andFailsAtTeardownForWhatTheyCouldNotMatch() async throws {
        let other = try StubServer.start(fixtures: mockData)
        addTeardownBlock { await other.stop() }
        _ = try await get("/before", from: other)
        try other.setVariant("bad", forStub: "top-albums")
        let connectLine = #line + 6
        expectOneFailureByTheEnd { message, line in
            message.contains("no stub matched GET /during (answered 404)")
                && message.hasSuffix("(startStubServer(unmatched: .allow) permits unmatched requests)")
                && line == connectLine
        }
        let stubs = try await startStubServer(transport: .remote(other.baseURL))
        XCTAssertEqual(other.requestCount(), 0, "reset")
        XCTAssertNil(other.variant(forStub: "top-albums"), "reset")
        _ = try await get("/during", from: other)
        await XCTAssertRequested(stubs, JournalQuery(path: "/during"))
        let kept = try await startStubServer(transport: .remote(other.baseURL), unmatched: .allow, reset: false)
        let count = try await kept.requestCount(JournalQuery())
        XCTAssertEqual(count, 1, "not reset")
    }

    /// Stubs not reset are not touched at all: an app's launch variant stays, and nothing is asked of a control
    /// port that may not listen yet.
    func testARemoteTransportNotReset_leavesTheStubsAsTheyStarted() async throws {
        let app = try StubServer.start(fixtures: mockData, configuration: StubServer.Configuration(variant: "bad"))
        addTeardownBlock { await app.stop() }
        _ = try await get("/before", from: app)
        _ = try await startStubServer(transport: .remote(app.baseURL), unmatched: .allow, reset: false)
        XCTAssertEqual(app.serverVariant, "bad")
        XCTAssertEqual(app.requestCount(), 1)
        let nobody = try await startStubServer(
            transport: .remote(URL(string: "http://127.0.0.1:9")!), unmatched: .allow, reset: false)
        XCTAssertEqual(nobody.remote?.url.port, 9, "taken without a call")
    }

    func testUnmatchedAllow_passes() async throws {
        let stubs = try await startStubServer(transport: .socket, fixtures: mockData, unmatched: .allow)
        let server = try XCTUnwrap(stubs.server)
        let answer = try await get("/nowhere", from: server)
        XCTAssertEqual(answer.status, 404)
    }

    func testXCTAssertRequested_passesOnTheCountAndFailsWithTheClosestRequests() async throws {
        let stubs = try await startStubServer(transport: .socket, fixtures: mockData)
        let server = try XCTUnwrap(stubs.server)
        let albums = "/api/v1/us/apple-music/top-albums/all/100/explicit.json"
        _ = try await get(albums + "?limit=5", from: server)
        await XCTAssertRequested(server, JournalQuery(method: "GET", path: albums))
        let expected =
            "expected 1 any method \(albums)?limit=10, got 0; closest requests:\n"
            + "  GET \(albums)?limit=5 -> top-albums good 200: query.limit: expected \"10\", got \"5\""
        let assertLine = #line + 4
        expectOneFailureByTheEnd { message, line in
            message.hasSuffix(expected) && line == assertLine
        }
        await XCTAssertRequested(server, JournalQuery(path: albums, query: ["limit": "10"]))
    }

    #if canImport(Darwin)
        /// Expects a failure from here to the end of the test, teardown included, that `matching` accepts.
        private func expectOneFailureByTheEnd(matching: @escaping (_ message: String, _ line: Int) -> Bool) {
            XCTExpectFailure("the teardown under test fails", strict: true) { issue in
                matching(issue.compactDescription, issue.sourceCodeContext.location?.lineNumber ?? 0)
            }
        }
    #else
        private var captured: [(message: String, line: Int)] = []
        private var capturing = false

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

        /// Expects exactly one failure from here to the end of the test, teardown included, which `matching` accepts.
        private func expectOneFailureByTheEnd(matching: @escaping (_ message: String, _ line: Int) -> Bool) {
            captured = []
            capturing = true
            // Teardown blocks run last-added first: this one runs after those the test adds later.
            addTeardownBlock { [self] in
                capturing = false
                checkCaptured(matching)
            }
        }

        private func checkCaptured(_ matching: (String, Int) -> Bool) {
            XCTAssertEqual(captured.count, 1, "\(captured)")
            if let failure = captured.first {
                XCTAssertTrue(matching(failure.message, failure.line), "\(failure.message) at line \(failure.line)")
            }
        }
    #endif
}

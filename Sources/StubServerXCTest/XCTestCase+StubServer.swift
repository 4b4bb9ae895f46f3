import Foundation
import StubServer
import XCTest

/// What a request no stub matched does to an XCTest that started the server.
public enum UnmatchedRequests: Sendable {
    /// Each one fails the test at teardown, with the stubs that came closest.
    case fail
    /// They are answered 404 and nothing more.
    case allow
}

extension XCTestCase {
    /// Starts a stub server serving `fixtures` on an ephemeral loopback port, stopped when the test ends.
    ///
    /// Strict by default: at teardown, each request no stub matched fails the test at the line that started
    /// the server, with the stubs that came closest, field by field.
    /// - Parameters:
    ///   - fixtures: a `MockData`-style folder.
    ///   - configuration: how the server listens; port 0 by default.
    ///   - unmatched: `.fail` (default) or `.allow`.
    /// - Returns: the running server; use its `baseURL`.
    /// - Throws: `CatalogError` for invalid fixtures, `StubServerError.bindFailed` when the server cannot listen.
    public func startStubServer(
        fixtures: URL, configuration: StubServer.Configuration = StubServer.Configuration(),
        unmatched: UnmatchedRequests = .fail, file: StaticString = #filePath, line: UInt = #line
    ) throws -> StubServer {
        let server = try StubServer.start(fixtures: fixtures, configuration: configuration)
        addTeardownBlock {
            if unmatched == .fail {
                for report in server.unmatchedReports() {
                    XCTFail(
                        report + "\n(startStubServer(unmatched: .allow) permits unmatched requests)", file: file,
                        line: line)
                }
            }
            await server.stop()
        }
        return server
    }
}

// swift-format-ignore: AlwaysUseLowerCamelCase
// Named like XCTest's own assertions.
/// Fails unless `server` received exactly `count` requests matching `query`, naming the closest requests it
/// received instead, field by field.
public func XCTAssertRequested(
    _ server: StubServer, _ query: JournalQuery, count: Int = 1, file: StaticString = #filePath, line: UInt = #line
) {
    if let mismatch = server.requestCountMismatch(query, count: count) {
        XCTFail(mismatch, file: file, line: line)
    }
}

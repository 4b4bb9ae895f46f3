public import Foundation
import StubContracts
public import StubServer
public import StubServerInProcess
public import StubServerRemote
public import XCTest

/// What a request no stub matched does to an XCTest that started the server.
extension XCTestCase {
    /// Starts a stub server serving `fixtures` on an ephemeral loopback port, stopped when the test ends.
    ///
    /// Strict by default: at teardown, each request no stub matched fails the test at the line that started
    /// the server, with the stubs that came closest, field by field.
    /// - Parameters:
    ///   - fixtures: a `MockData`-style folder.
    ///   - configuration: how the server listens; port 0 by default.
    ///   - unmatched: `.fail` (default) or `.allow`.
    ///   - contracts: whether requests to stubs that stand for an OpenAPI operation (their `openapi` key) are
    ///     checked against it; each refused request fails the test at teardown like an unmatched one.
    /// - Returns: the running server; use its `baseURL`.
    /// - Throws: `CatalogError` for invalid fixtures, `StubServerError.bindFailed` when the server cannot listen.
    public func startStubServer(
        fixtures: URL, configuration: StubServer.Configuration = StubServer.Configuration(),
        unmatched: UnmatchedRequests = .fail, contracts: Bool = true, file: StaticString = #filePath,
        line: UInt = #line
    ) throws -> StubServer {
        let server = try StubServer.start(fixtures: fixtures, configuration: configuration)
        if contracts { server.runtime.installContractChecks() }
        stopAtTeardown(server, unmatched: unmatched, hint: "startStubServer", file: file, line: line)
        return server
    }

    /// Starts a stub server serving the fixtures folder named `fixtures`, found beside the test file or in a folder
    /// above it (as the Swift Testing traits find theirs), on an ephemeral loopback port; stopped, and strict, at
    /// teardown like `startStubServer(fixtures:)` with a URL.
    /// - Throws: `CatalogError` when no such folder is there or its fixtures are invalid,
    ///   `StubServerError.bindFailed` when the server cannot listen.
    public func startStubServer(
        fixtures: String = "MockData", configuration: StubServer.Configuration = StubServer.Configuration(),
        unmatched: UnmatchedRequests = .fail, contracts: Bool = true, file: StaticString = #filePath,
        line: UInt = #line
    ) throws -> StubServer {
        try startStubServer(
            fixtures: Self.folder(fixtures, from: file), configuration: configuration, unmatched: unmatched,
            contracts: contracts, file: file, line: line)
    }

    /// Starts in-process stubs of the fixtures folder named `fixtures`, found beside the test file or above it,
    /// like `startInProcessStubs(fixtures:)` with a URL.
    /// - Throws: `CatalogError` when no such folder is there or its fixtures are invalid.
    public func startInProcessStubs(
        fixtures: String = "MockData", configuration: InProcessStubs.Configuration = InProcessStubs.Configuration(),
        unmatched: UnmatchedRequests = .fail, contracts: Bool = true, file: StaticString = #filePath,
        line: UInt = #line
    ) throws -> InProcessStubs {
        try startInProcessStubs(
            fixtures: Self.folder(fixtures, from: file), configuration: configuration, unmatched: unmatched,
            contracts: contracts, file: file, line: line)
    }

    /// The folder `name` (an absolute path, or a name looked for beside `file` and above it).
    /// - Throws: `CatalogError` naming where it looked.
    private static func folder(_ name: String, from file: StaticString) throws(CatalogError) -> URL {
        if name.hasPrefix("/") { return URL(fileURLWithPath: name) }
        guard let folder = StubCatalog.findFolder(named: name, from: "\(file)") else {
            throw CatalogError(
                root: nil,
                problems: [
                    FixtureProblem(
                        file: name, keyPath: "",
                        message: "no such fixtures folder beside \(file) or in any folder above it")
                ])
        }
        return folder
    }

    /// Starts an in-process stub server serving `fixtures`, stopped when the test ends: give the code under test
    /// its `urlSession` (or a session made from its `sessionConfiguration`); requests keep their real URLs.
    ///
    /// Strict by default, and checks requests against their stubs' OpenAPI operations, like `startStubServer`.
    /// - Throws: `CatalogError` for invalid fixtures.
    public func startInProcessStubs(
        fixtures: URL, configuration: InProcessStubs.Configuration = InProcessStubs.Configuration(),
        unmatched: UnmatchedRequests = .fail, contracts: Bool = true, file: StaticString = #filePath,
        line: UInt = #line
    ) throws -> InProcessStubs {
        let stubs = try InProcessStubs.start(fixtures: fixtures, configuration: configuration)
        if contracts { stubs.runtime.installContractChecks() }
        stopAtTeardown(stubs, unmatched: unmatched, hint: "startInProcessStubs", file: file, line: line)
        return stubs
    }

    /// Takes control of stubs in another process (`stub-server serve` started by a script, or an app that started
    /// `InProcessStubs` with a control port) for this test: resets them, and at teardown fails the test for each
    /// request they could not match (strict by default), with the closest stubs, as a local server does.
    /// - Parameters:
    ///   - url: the other process's base URL; `STUB_SERVER_URL` of this process's environment when nil.
    ///   - reset: whether to reset the stubs first; pass false for stubs an app started with the variants of its
    ///     launch environment (and whose control port may not listen yet).
    ///   - unmatched: `.fail` (default) or `.allow`.
    ///   - isolation: the caller's actor, which the call stays on: a main-actor test case (a UI test) is not sent
    ///     off it.
    /// - Returns: the control; set variants on it before launching the app.
    /// - Throws: `StubServerError.controlFailed` when nothing answers there.
    public func connectRemoteStubs(
        url: URL? = nil, reset: Bool = true, unmatched: UnmatchedRequests = .fail, file: StaticString = #filePath,
        line: UInt = #line, isolation: isolated (any Actor)? = #isolation
    ) async throws -> RemoteStubs {
        guard
            let url = url
                ?? ProcessInfo.processInfo.environment[RemoteStubs.environmentKey].flatMap(URL.init(string:))
        else {
            throw StubServerError.controlFailed(
                url: "(none)",
                reason: "pass url: or set \(RemoteStubs.environmentKey) (for example http://127.0.0.1:8080)")
        }
        let remote = RemoteStubs(url: url)
        if reset { try await remote.reset() }
        stopAtTeardown(remote, unmatched: unmatched, hint: "connectRemoteStubs", file: file, line: line)
        return remote
    }

    /// At teardown: fails the test for each request no stub matched (unless allowed), then stops `server`.
    private func stopAtTeardown(
        _ server: any StubControl, unmatched: UnmatchedRequests, hint: String, file: StaticString, line: UInt
    ) {
        addTeardownBlock {
            if unmatched == .fail {
                do {
                    // The evidence first: with `continueAfterFailure` false, nothing after a failure runs.
                    for report in try await server.unmatchedReports() {
                        await attachEvidence(of: server, report: report)
                        XCTFail(
                            report + "\n(\(hint)(unmatched: .allow) permits unmatched requests)", file: file,
                            line: line)
                    }
                } catch {
                    XCTFail(String(describing: error), file: file, line: line)
                }
            }
            await server.stop()
        }
    }
}

// swift-format-ignore: AlwaysUseLowerCamelCase
// Named like XCTest's own assertions.
/// Fails unless `server` (over the wire, in process or in another process) received exactly `count` requests matching `query`,
/// naming the closest requests it received instead, field by field.
public func XCTAssertRequested(
    _ server: any StubControl, _ query: JournalQuery, count: Int = 1, file: StaticString = #filePath, line: UInt = #line
) async {
    do {
        if let mismatch = try await server.requestCountMismatch(query, count: count) {
            await attachEvidence(of: server, report: mismatch)
            XCTFail(mismatch, file: file, line: line)
        }
    } catch {
        XCTFail(String(describing: error), file: file, line: line)
    }
}

// swift-format-ignore: AlwaysUseLowerCamelCase
// Named like XCTest's own assertions.
/// Fails unless the most recent WebSocket of stub `stub` carried exactly `expected`, both ways and in order,
/// naming the first message that differs.
public func XCTAssertWebSocketMessages(
    _ server: any StubControl, stub: String, _ expected: [JournalEntry.WebSocketRecord],
    file: StaticString = #filePath, line: UInt = #line
) async {
    do {
        if let mismatch = try await server.webSocketMessagesMismatch(stub: stub, expected: expected) {
            await attachEvidence(of: server, report: mismatch)
            XCTFail(mismatch, file: file, line: line)
        }
    } catch {
        XCTFail(String(describing: error), file: file, line: line)
    }
}

public import Foundation
public import StubHarness
public import StubServer
public import XCTest

extension XCTestCase {
    /// Starts stubs over `transport` for this test, stopped when it ends: `.socket` (a server on an ephemeral
    /// loopback port), `.inProcess` (answering at the requests' real URLs) or `.remote(url)` (another process's
    /// stubs, reset first unless `reset` is false). Whatever the transport, give the code under test the returned
    /// stubs' `urlSession` and `url(_:)` of its real URLs: the test's body does not change with the transport.
    ///
    /// Strict by default: at teardown, each request no stub matched fails the test at the line that started the
    /// stubs, with the stubs that came closest, field by field.
    ///
    /// ```swift
    /// let stubs = try await startStubServer(transport: .inProcess, variants: ["top-albums": "bad"])
    /// let client = AlbumsClient(baseURL: stubs.url(AlbumsClient.production), session: stubs.urlSession)
    /// ```
    /// - Parameters:
    ///   - transport: where the stubs answer.
    ///   - fixtures: the fixtures folder: a name looked for beside the test file and in the folders above it (as
    ///     the Swift Testing trait finds its), or an absolute path; not read by `.remote`.
    ///   - variants: variants chosen per stub.
    ///   - variant: the server-wide variant.
    ///   - unmatched: `.fail` (default) or `.allow`.
    ///   - contracts: whether requests to stubs that stand for an OpenAPI operation (their `openapi` key) are
    ///     checked against it; each refused request fails the test at teardown like an unmatched one.
    ///   - reset: whether `.remote` stubs are reset first; pass false for stubs an app started with the variants
    ///     of its launch environment (and whose control port may not listen yet).
    ///   - isolation: the caller's actor, which the call stays on: a main-actor test case (a UI test) is not sent
    ///     off it.
    /// - Returns: the running stubs (their `server`, `inProcess` or `remote`, as the transport says).
    /// - Throws: `CatalogError` when the folder is missing or its fixtures are invalid, `StubServerError` when a
    ///   server cannot listen, a variant does not exist, or nothing answers at a remote URL.
    public func startStubServer<Stubs: StubControl>(
        transport: StubTransport<Stubs>, fixtures: String = "MockData", variants: [String: String] = [:],
        variant: String? = nil, unmatched: UnmatchedRequests = .fail, contracts: Bool = true, reset: Bool = true,
        file: StaticString = #filePath, line: UInt = #line, isolation: isolated (any Actor)? = #isolation
    ) async throws -> TestStubs {
        let folder = transport.readsFixtures ? try Self.folder(fixtures, from: file) : nil
        return try await startStubServer(
            transport: transport, folder: folder, variants: variants, variant: variant, unmatched: unmatched,
            contracts: contracts, reset: reset, file: file, line: line)
    }

    /// Starts stubs over `transport` serving the fixtures folder at `fixtures` (a test bundle's resources, for
    /// instance), like `startStubServer(transport:fixtures:)` with a folder name.
    public func startStubServer<Stubs: StubControl>(
        transport: StubTransport<Stubs>, fixtures: URL, variants: [String: String] = [:], variant: String? = nil,
        unmatched: UnmatchedRequests = .fail, contracts: Bool = true, reset: Bool = true,
        file: StaticString = #filePath, line: UInt = #line, isolation: isolated (any Actor)? = #isolation
    ) async throws -> TestStubs {
        try await startStubServer(
            transport: transport, folder: fixtures, variants: variants, variant: variant, unmatched: unmatched,
            contracts: contracts, reset: reset, file: file, line: line)
    }

    func startStubServer<Stubs: StubControl>(
        transport: StubTransport<Stubs>, folder: URL?, variants: [String: String], variant: String?,
        unmatched: UnmatchedRequests, contracts: Bool, reset: Bool, file: StaticString, line: UInt,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> TestStubs {
        let stubs = TestStubs(
            try await transport.start(
                TestStubSettings(
                    fixtures: folder, variants: variants, serverVariant: variant, contracts: contracts, reset: reset,
                    test: coverageName)))
        stopAtTeardown(stubs, unmatched: unmatched, file: file, line: line)
        return stubs
    }

    /// This test as coverage records name it: `Module.Class/testName`, what `swift test --xunit-output` writes as
    /// a test case's `classname` and `name` (XCTest's `name` is `-[Class testName]` on Apple platforms and
    /// `Class.testName` elsewhere).
    var coverageName: String {
        let method = name.split(whereSeparator: { " .]".contains($0) }).last.map(String.init) ?? name
        return "\(String(reflecting: type(of: self)))/\(method)"
    }

    /// The folder `name` (an absolute path, or a name looked for beside `file` and above it).
    /// - Throws: `CatalogError` naming where it looked.
    static func folder(_ name: String, from file: StaticString) throws(CatalogError) -> URL {
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

    /// At teardown: fails the test for each request no stub matched (unless allowed), then stops `server`.
    func stopAtTeardown(_ server: any StubControl, unmatched: UnmatchedRequests, file: StaticString, line: UInt) {
        addTeardownBlock {
            if unmatched == .fail {
                do {
                    // The evidence first: with `continueAfterFailure` false, nothing after a failure runs.
                    for report in try await server.unmatchedReports() {
                        await attachEvidence(of: server, report: report)
                        XCTFail(
                            report + "\n(startStubServer(unmatched: .allow) permits unmatched requests)", file: file,
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

public import Foundation
public import StubServer
public import StubServerInProcess
public import StubServerRemote

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// The running stubs of one test, whatever the transport: the session and URLs the client under test needs, and
/// the control operations a test asks (`StubControl`). A test body written against it runs unchanged over
/// `.socket`, `.inProcess` and `.remote(url)`.
///
/// ```swift
/// @Test(.stubServer(transport: .inProcess, variants: ["top-albums": "bad"]))  // or .socket: the body is the same
/// func albumList_showsAFailure() async throws {
///     let stubs = try TestStubs.required()
///     let client = AlbumsClient(baseURL: stubs.url(AlbumsClient.production), session: stubs.urlSession)
///     // ...
///     await expectRequests(JournalQuery(stub: "top-albums", variant: "bad"))
/// }
/// ```
public final class TestStubs: StubControl {
    /// The stubs themselves: a `StubServer`, `InProcessStubs` or `RemoteStubs`, as the transport says.
    public let stubs: any StubControl
    /// The session the client under test uses: in process, the one the stubs answer; otherwise a fresh ephemeral
    /// one (no cookies or cache shared with another test), invalidated when the stubs stop.
    public let urlSession: URLSession
    /// Where a request to `/` goes: the socket server's `http://127.0.0.1:PORT`, the remote's URL, or nil in
    /// process, where requests keep their own scheme and host.
    private let base: URL?

    /// The running test's stubs, given by its `.stubServer` trait; nil outside one.
    @TaskLocal public static var current: TestStubs?

    /// The running test's stubs, given by its `.stubServer` trait.
    /// - Throws: `TestStubsError.noCurrentStubs` outside such a test.
    public static func required() throws(TestStubsError) -> TestStubs {
        guard let current else { throw .noCurrentStubs }
        return current
    }

    /// Holds `stubs` for a test.
    package init(_ stubs: any StubControl) {
        self.stubs = stubs
        switch stubs {
        case let inProcess as InProcessStubs: (urlSession, base) = (inProcess.urlSession, nil)
        case let server as StubServer: (urlSession, base) = (URLSession(configuration: .ephemeral), server.baseURL)
        case let remote as RemoteStubs: (urlSession, base) = (URLSession(configuration: .ephemeral), remote.url)
        default: (urlSession, base) = (URLSession(configuration: .ephemeral), nil)
        }
    }

    /// The URL the client requests for the real URL `real`: over a socket, its path and query on the server's
    /// loopback address (the socket server answers any host; `wss://` becomes `ws://`); remote, on the remote's URL;
    /// in process, `real` itself.
    public func url(_ real: URL) -> URL {
        guard let base, var parts = URLComponents(url: real, resolvingAgainstBaseURL: true) else { return real }
        let baseParts = URLComponents(url: base, resolvingAgainstBaseURL: true)
        // A WebSocket URL stays one (`ws`, or `wss` on an https base): URLSession opens sockets only for those.
        let secure = baseParts?.scheme == "https"
        let scheme = ["ws", "wss"].contains(parts.scheme?.lowercased()) ? (secure ? "wss" : "ws") : baseParts?.scheme
        (parts.scheme, parts.host, parts.port) = (scheme, baseParts?.host, baseParts?.port)
        let prefix =
            baseParts?.percentEncodedPath.hasSuffix("/") == true
            ? String(baseParts?.percentEncodedPath.dropLast() ?? "") : baseParts?.percentEncodedPath ?? ""
        parts.percentEncodedPath = prefix + parts.percentEncodedPath
        return parts.url ?? real
    }

    /// The socket server, when the transport is `.socket`: for what only it has (its port, a UI test's launch
    /// environment).
    public var server: StubServer? { stubs as? StubServer }
    /// The in-process stubs, when the transport is `.inProcess`.
    public var inProcess: InProcessStubs? { stubs as? InProcessStubs }
    /// The other process's stubs, when the transport is `.remote`.
    public var remote: RemoteStubs? { stubs as? RemoteStubs }

    public var serverVariant: String? { get async throws(StubServerError) { try await stubs.serverVariant } }
    public func setVariant(_ variant: String?) async throws(StubServerError) { try await stubs.setVariant(variant) }
    public func setVariant(_ variant: String?, forStub stub: String) async throws(StubServerError) {
        try await stubs.setVariant(variant, forStub: stub)
    }
    public func variant(forStub stub: String) async throws(StubServerError) -> String? {
        try await stubs.variant(forStub: stub)
    }
    public func setMutation(_ mutation: String?, forStub stub: String) async throws(StubServerError) {
        try await stubs.setMutation(mutation, forStub: stub)
    }
    public func mutation(forStub stub: String) async throws(StubServerError) -> String? {
        try await stubs.mutation(forStub: stub)
    }
    public func items(ofResource name: String) async throws(StubServerError) -> Data {
        try await stubs.items(ofResource: name)
    }
    public func setItems(_ items: Data, ofResource name: String) async throws(StubServerError) {
        try await stubs.setItems(items, ofResource: name)
    }
    public var scenarios: [String: String] { get async throws(StubServerError) { try await stubs.scenarios } }
    public func setScenario(_ name: String, to newState: String) async throws(StubServerError) {
        try await stubs.setScenario(name, to: newState)
    }
    public func journal(_ query: JournalQuery = JournalQuery()) async throws(StubServerError) -> [JournalEntry] {
        try await stubs.journal(query)
    }
    public func requestCount(_ query: JournalQuery = JournalQuery()) async throws(StubServerError) -> Int {
        try await stubs.requestCount(query)
    }
    public func unmatchedRequests() async throws(StubServerError) -> [JournalEntry] {
        try await stubs.unmatchedRequests()
    }
    public func clearJournal() async throws(StubServerError) { try await stubs.clearJournal() }
    public func reset() async throws(StubServerError) { try await stubs.reset() }
    @discardableResult public func reload() async throws -> ReloadReport { try await stubs.reload() }

    /// Stops the stubs, and lets go of the session this handle made (its tasks end as the stubs stopped them: a
    /// cancel as a task leaves the session traps in FoundationNetworking, swift-corelibs-foundation issue 3296).
    public func stop() async {
        await stubs.stop()
        if inProcess == nil { urlSession.finishTasksAndInvalidate() }
    }
}

/// Why a test has no stubs to hand over.
public enum TestStubsError: Error, Equatable, CustomStringConvertible {
    /// `TestStubs.required()` outside a test (or suite) with the `.stubServer` trait.
    case noCurrentStubs

    public var description: String {
        "no stubs in this task: add .stubServer(...) to the test or its suite"
    }
}

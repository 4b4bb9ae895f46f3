public import StubServer
public import StubServerInProcess
public import Testing

extension StubServer {
    /// The server of the running test's `.stubServer` trait; nil outside one.
    @TaskLocal public static var current: StubServer?

    /// The server of the running test's `.stubServer` trait.
    /// - Throws: `StubServerTestingError.noCurrentServer` outside such a test.
    public static func required() throws -> StubServer {
        guard let current else { throw StubServerTestingError.noCurrentServer }
        return current
    }
}

extension InProcessStubs {
    /// The server of the running test's `.inProcessStubs` trait; nil outside one.
    @TaskLocal public static var current: InProcessStubs?

    /// The server of the running test's `.inProcessStubs` trait.
    /// - Throws: `StubServerTestingError.noCurrentServer` outside such a test.
    public static func required() throws -> InProcessStubs {
        guard let current else { throw StubServerTestingError.noCurrentServer }
        return current
    }
}

/// The server a helper asks: the one given, else the test's `StubServer.current`, else its
/// `InProcessStubs.current`; nil (and an issue recorded) when there is none.
private func currentServer(_ given: (any StubControl)?, _ location: SourceLocation) -> (any StubControl)? {
    if let server: any StubControl = given ?? StubServer.current ?? InProcessStubs.current { return server }
    Issue.record(Comment(rawValue: StubServerTestingError.noCurrentServer.description), sourceLocation: location)
    return nil
}

/// Records an issue unless the server received exactly `count` requests matching `query`, naming the closest
/// requests it received instead, field by field.
/// - Parameters:
///   - query: the requests to count.
///   - count: how many there must be.
///   - server: the server to ask, over the wire or in process; the test's current one when nil.
///   - sourceLocation: where the issue is recorded.
public func expectRequests(
    _ query: JournalQuery, count: Int = 1, on server: (any StubControl)? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    guard let server = currentServer(server, sourceLocation) else { return }
    if let mismatch = server.requestCountMismatch(query, count: count) {
        Issue.record(Comment(rawValue: mismatch), sourceLocation: sourceLocation)
    }
}

/// Records an issue for each request no stub matched so far, with the stubs that came closest.
public func expectNoUnmatchedRequests(
    on server: (any StubControl)? = nil, sourceLocation: SourceLocation = #_sourceLocation
) {
    guard let server = currentServer(server, sourceLocation) else { return }
    for report in server.unmatchedReports() {
        Issue.record(Comment(rawValue: report), sourceLocation: sourceLocation)
    }
}

/// Records an issue unless the most recent WebSocket of stub `stub` carried exactly `expected`, both ways and in
/// order (`.init(.sent, text: "hello")`, `.init(.received, text: "ping")`), naming the first message that differs.
/// - Parameters:
///   - expected: the messages, in order.
///   - stub: the WebSocket stub whose most recent socket is checked.
///   - server: the server to ask; the test's current one when nil.
///   - sourceLocation: where the issue is recorded.
public func expectWebSocketMessages(
    _ expected: [JournalEntry.WebSocketRecord], stub: String, on server: (any StubControl)? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    guard let server = currentServer(server, sourceLocation) else { return }
    if let mismatch = server.webSocketMessagesMismatch(stub: stub, expected: expected) {
        Issue.record(Comment(rawValue: mismatch), sourceLocation: sourceLocation)
    }
}

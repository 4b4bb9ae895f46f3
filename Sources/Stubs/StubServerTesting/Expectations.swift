public import StubHarness
public import StubServer
public import Testing

/// The server a helper asks: the one given, else the test's `TestStubs.current`; nil (and an issue recorded) when
/// there is none.
private func currentServer(_ given: (any StubControl)?, _ location: SourceLocation) -> (any StubControl)? {
    if let server: any StubControl = given ?? TestStubs.current { return server }
    Issue.record(Comment(rawValue: TestStubsError.noCurrentStubs.description), sourceLocation: location)
    return nil
}

/// Records an issue unless the server received exactly `count` requests matching `query`, naming the closest
/// requests it received instead, field by field; the journal (as HAR) and the message are attached to the test.
/// - Parameters:
///   - query: the requests to count.
///   - count: how many there must be.
///   - server: the stubs to ask, over the wire, in process or in another process (`RemoteStubs`); the test's
///     current ones when nil.
///   - sourceLocation: where the issue is recorded.
public func expectRequests(
    _ query: JournalQuery, count: Int = 1, on server: (any StubControl)? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) async {
    guard let server = currentServer(server, sourceLocation) else { return }
    do {
        if let mismatch = try await server.requestCountMismatch(query, count: count) {
            Issue.record(Comment(rawValue: mismatch), sourceLocation: sourceLocation)
            await attachEvidence(of: server, report: mismatch, sourceLocation: sourceLocation)
        }
    } catch {
        Issue.record(Comment(rawValue: error.description), sourceLocation: sourceLocation)
    }
}

/// Records an issue for each request no stub matched so far, with the stubs that came closest, and for each
/// request that broke its stub's API contract. What it reports, the test's trait does not report again when the
/// test ends: with `unmatched: .fail`, an unmatched request a test expects is expected like any issue:
///
/// ```swift
/// @Test(.stubServer()) func aTypo_isReported() async throws {
///     // ... the app sends a request no stub matches
///     await withKnownIssue { await expectNoUnmatchedRequests() }
/// }
/// ```
public func expectNoUnmatchedRequests(
    on server: (any StubControl)? = nil, sourceLocation: SourceLocation = #_sourceLocation
) async {
    let isTestsOwn = server == nil
    guard let server = currentServer(server, sourceLocation) else { return }
    do {
        let byEntry = try await server.unmatchedReportsByEntry()
        // Settled for the test's own server only: another server's entries are numbered apart.
        if isTestsOwn { ReportedEntries.current?.insert(byEntry.map(\.entry)) }
        let reports = byEntry.map(\.report)
        for report in reports {
            Issue.record(Comment(rawValue: report), sourceLocation: sourceLocation)
        }
        if !reports.isEmpty {
            await attachEvidence(
                of: server, report: reports.joined(separator: "\n\n"), sourceLocation: sourceLocation)
        }
    } catch {
        Issue.record(Comment(rawValue: error.description), sourceLocation: sourceLocation)
    }
}

/// Records an issue unless the most recent WebSocket of stub `stub` carried exactly `expected`, both ways and in
/// order (`.init(.sent, text: "hello")`, `.init(.received, text: "ping")`), naming the first message that differs.
/// - Parameters:
///   - expected: the messages, in order.
///   - stub: the WebSocket stub whose most recent socket is checked.
///   - server: the stubs to ask; the test's current ones when nil.
///   - sourceLocation: where the issue is recorded.
public func expectWebSocketMessages(
    _ expected: [JournalEntry.WebSocketRecord], stub: String, on server: (any StubControl)? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) async {
    guard let server = currentServer(server, sourceLocation) else { return }
    do {
        if let mismatch = try await server.webSocketMessagesMismatch(stub: stub, expected: expected) {
            Issue.record(Comment(rawValue: mismatch), sourceLocation: sourceLocation)
            await attachEvidence(of: server, report: mismatch, sourceLocation: sourceLocation)
        }
    } catch {
        Issue.record(Comment(rawValue: error.description), sourceLocation: sourceLocation)
    }
}

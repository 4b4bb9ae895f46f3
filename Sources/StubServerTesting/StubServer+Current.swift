import StubServer
import Testing

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

/// Records an issue unless the server received exactly `count` requests matching `query`, naming the closest
/// requests it received instead, field by field.
/// - Parameter server: the server to ask; the test's `StubServer.current` when nil.
public func expectRequests(
    _ query: JournalQuery, count: Int = 1, on server: StubServer? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    guard let server = server ?? StubServer.current else {
        Issue.record(
            Comment(rawValue: StubServerTestingError.noCurrentServer.description), sourceLocation: sourceLocation)
        return
    }
    if let mismatch = server.requestCountMismatch(query, count: count) {
        Issue.record(Comment(rawValue: mismatch), sourceLocation: sourceLocation)
    }
}

/// Records an issue for each request no stub matched so far, with the stubs that came closest.
public func expectNoUnmatchedRequests(on server: StubServer? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
    guard let server = server ?? StubServer.current else {
        Issue.record(
            Comment(rawValue: StubServerTestingError.noCurrentServer.description), sourceLocation: sourceLocation)
        return
    }
    for report in server.unmatchedReports() {
        Issue.record(Comment(rawValue: report), sourceLocation: sourceLocation)
    }
}

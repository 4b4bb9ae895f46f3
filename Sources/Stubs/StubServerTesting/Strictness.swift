import StubServer
import Testing

/// What a trait does, when its test ends, with the requests no stub matched.
struct Strictness {
    var unmatched: UnmatchedRequests
    var location: SourceLocation
    /// How to permit them, added to each issue.
    var hint: String
    /// The journal entries the test reported itself (`expectNoUnmatchedRequests()`): not reported again.
    let reported = ReportedEntries()

    /// Runs `body` with `reported` as the test's, so that `expectNoUnmatchedRequests()` inside it (or inside
    /// `withKnownIssue`) settles what it reports.
    func scope<T>(_ body: () async throws -> T) async rethrows -> T {
        try await ReportedEntries.$current.withValue(reported) { try await body() }
    }

    /// Records an issue for each request no stub matched, with the closest stubs, unless they are allowed or the
    /// test reported them already.
    func check(_ server: any StubControl) async {
        guard unmatched == .fail else { return }
        do {
            let settled = reported.entries
            let reports = try await server.unmatchedReportsByEntry().filter { !settled.contains($0.entry) }.map(
                \.report)
            for report in reports {
                Issue.record(Comment(rawValue: report + "\n(\(hint))"), sourceLocation: location)
            }
            if !reports.isEmpty {
                await attachEvidence(of: server, report: reports.joined(separator: "\n\n"), sourceLocation: location)
            }
        } catch {
            Issue.record(Comment(rawValue: error.description), sourceLocation: location)
        }
    }
}

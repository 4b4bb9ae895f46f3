import Locking

/// The journal entries a test reported itself with `expectNoUnmatchedRequests()`: its trait does not report them
/// again when the test ends, so that a test can expect them with `withKnownIssue`.
final class ReportedEntries: Sendable {
    /// The running test's, set by its stub trait; nil outside one.
    @TaskLocal static var current: ReportedEntries?

    private let reported = Lock<Set<Int>>([])

    var entries: Set<Int> { reported.withLock { $0 } }

    func insert(_ entries: some Sequence<Int>) {
        reported.withLock { $0.formUnion(entries) }
    }
}

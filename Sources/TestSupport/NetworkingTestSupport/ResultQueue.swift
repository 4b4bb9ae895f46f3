import Locking
public import Networking
public import Testing

/// The answers a fake client gives, one per call, in the order the test queued them.
///
/// A call with nothing queued records a test failure and then throws, so that a failure-path test that forgot to
/// queue a result fails instead of passing on the fake's own error.
public final class ResultQueue<Value: Sendable>: Sendable {
    private let name: String
    private let results: Lock<[Result<Value, APIError>]>
    private let sourceLocation: SourceLocation

    /// - Parameters:
    ///   - name: the fake, for messages, such as `FakeAlbumsClient`.
    ///   - results: the answers, first call first.
    public init(
        _ name: String, _ results: [Result<Value, APIError>] = [], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        self.name = name
        self.results = Lock(results)
        self.sourceLocation = sourceLocation
    }

    public func enqueue(_ result: Result<Value, APIError>) {
        results.withLock { $0.append(result) }
    }

    /// Answers not used yet.
    public var remaining: Int { results.withLock { $0.count } }

    /// The next answer for `call`, such as `topAlbums()`.
    /// - Throws: the queued error; `APIError.transport` after recording a failure when nothing is queued.
    public func next(for call: String) throws(APIError) -> Value {
        let next = results.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        guard let next else {
            let message = "\(name).\(call) was called with no result queued: queue one in the test"
            TestFailure.record(message, sourceLocation: sourceLocation)
            throw .transport(message)
        }
        return try next.get()
    }
}

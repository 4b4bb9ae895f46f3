public import Foundation
import Locking
public import Networking
public import Testing

/// An `HTTPClient` for unit tests: answers from a handler the test sets and records every request. A request
/// with no handler set records a test failure naming it, then throws `APIError.transport`.
public final class FakeHTTPClient: HTTPClient {
    public typealias Handler = @Sendable (HTTPRequest) async throws(APIError) -> HTTPResponse

    private let state = Lock<(handler: Handler?, requests: [HTTPRequest])>((nil, []))
    /// Where the test made this fake: a failure is reported there.
    private let sourceLocation: SourceLocation

    public init(_ handler: Handler? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        self.sourceLocation = sourceLocation
        state.withLock { $0.handler = handler }
    }

    /// Answers every request with `status` and `body`.
    public convenience init(status: Int, body: Data, headers: [String: String] = [:]) {
        self.init { _ throws(APIError) in HTTPResponse(status: status, headers: headers, body: body) }
    }

    /// Fails every request with `error`.
    public convenience init(failing error: APIError) {
        self.init { _ throws(APIError) in throw error }
    }

    /// Replaces the handler.
    public func respond(with handler: @escaping Handler) {
        state.withLock { $0.handler = handler }
    }

    /// The requests sent so far, oldest first.
    public var requests: [HTTPRequest] {
        state.withLock { $0.requests }
    }

    public func send(_ request: HTTPRequest) async throws(APIError) -> HTTPResponse {
        let handler = state.withLock { state in
            state.requests.append(request)
            return state.handler
        }
        guard let handler else {
            let message = "FakeHTTPClient has no handler for \(request.method) \(request.url): set one in the test"
            TestFailure.record(message, sourceLocation: sourceLocation)
            throw .transport(message)
        }
        return try await handler(request)
    }
}

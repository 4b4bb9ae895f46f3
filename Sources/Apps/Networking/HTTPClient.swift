public import Foundation

/// Sends one HTTP request and returns the answer, whatever its status; the one thing every API client needs.
public protocol HTTPClient: Sendable {
    /// Sends `request`.
    /// - Returns: the response, whatever its status.
    /// - Throws: `APIError` for transport failures, timeouts, being offline, or cancellation.
    func send(_ request: HTTPRequest) async throws(APIError) -> HTTPResponse
}

/// A request for an `HTTPClient`.
public struct HTTPRequest: Sendable, Equatable {
    public var url: URL
    public var method: String
    public var headers: [String: String]
    public var body: Data?
    /// Seconds to wait for the answer; nil for the client's default.
    public var timeout: TimeInterval?

    public init(
        url: URL, method: String = "GET", headers: [String: String] = [:], body: Data? = nil,
        timeout: TimeInterval? = nil
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}

/// The answer to an `HTTPRequest`.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    /// Header fields with lower-cased names.
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(
            headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
    }

    /// The value of the header `name`, compared case-insensitively.
    public func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }
}

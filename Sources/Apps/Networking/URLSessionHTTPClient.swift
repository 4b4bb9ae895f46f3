// URLSession's types are Foundation's on Apple platforms, FoundationNetworking's on Linux.
#if canImport(FoundationNetworking)
    import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

/// The `HTTPClient` that goes over the network, through `URLSession`.
public struct URLSessionHTTPClient: HTTPClient {
    private let session: URLSession

    /// - Parameter session: the session to use; by default an ephemeral one (no cookies, no URL cache).
    public init(session: URLSession = URLSession(configuration: .ephemeral)) {
        self.session = session
    }

    public func send(_ request: HTTPRequest) async throws(APIError) -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        for (name, value) in request.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        if let timeout = request.timeout {
            urlRequest.timeoutInterval = Self.effectiveTimeout(timeout)
        }
        let data: Data
        let response: URLResponse
        do {
            try Task.checkCancellation()
            (data, response) = try await session.data(for: urlRequest)
        } catch {
            throw Self.apiError(for: error)
        }
        guard let http = response as? HTTPURLResponse else {
            throw .transport("not an HTTP response from \(request.url)")
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return HTTPResponse(status: http.statusCode, headers: headers, body: data)
    }

    /// FoundationNetworking hands libcurl whole seconds, so 1.5 s becomes 1 s and anything under 1 s times out at
    /// once; there, timeouts round up to whole seconds. Apple's URLSession takes them as they are.
    static func effectiveTimeout(_ seconds: TimeInterval) -> TimeInterval {
        // Apple: `var timeoutInterval: TimeInterval`, in seconds
        // (developer.apple.com/documentation/foundation/urlrequest/timeoutinterval).
        #if canImport(FoundationNetworking)
            return max(1, seconds.rounded(.up))
        #else
            return seconds
        #endif
    }

    /// Maps what `URLSession` throws to an `APIError`.
    static func apiError(for error: any Error) -> APIError {
        if error is CancellationError { return .cancelled }
        guard let urlError = error as? URLError else { return .transport("\(error)") }
        switch urlError.code {
        case .timedOut: return .timeout
        case .notConnectedToInternet, .dataNotAllowed, .internationalRoamingOff: return .offline
        case .cancelled: return .cancelled
        case .badURL, .unsupportedURL: return .invalidURL(urlError.failingURL?.absoluteString ?? "")
        default: return .transport(urlError.localizedDescription)
        }
    }
}

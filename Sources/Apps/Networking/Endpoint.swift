public import Foundation

/// A request as a value: base URL, path and query, built into a URL with `URLComponents`.
public struct Endpoint: Sendable, Equatable {
    /// The API's base URL: the live host, or a stub server's `baseURL`.
    public var baseURL: URL
    /// The path below the base URL, starting with `/`.
    public var path: String
    public var query: [URLQueryItem]
    public var method: String
    public var headers: [String: String]
    public var timeout: TimeInterval?

    public init(
        baseURL: URL, path: String, query: [URLQueryItem] = [], method: String = "GET", headers: [String: String] = [:],
        timeout: TimeInterval? = nil
    ) {
        self.baseURL = baseURL
        self.path = path
        self.query = query
        self.method = method
        self.headers = headers
        self.timeout = timeout
    }

    /// The full URL, with every query value percent-encoded (`+`, `&`, `=` and non-ASCII included).
    /// - Throws: `APIError.invalidURL` when the base URL and path do not form a URL.
    public func url() throws(APIError) -> URL {
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) else {
            throw .invalidURL("\(baseURL)")
        }
        let basePath = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
        components.path = basePath + (path.hasPrefix("/") ? path : "/" + path)
        if !query.isEmpty {
            components.percentEncodedQueryItems = query.map {
                URLQueryItem(name: Self.encode($0.name), value: $0.value.map(Self.encode))
            }
        }
        guard let url = components.url, url.scheme != nil, url.host != nil else {
            throw .invalidURL("\(baseURL) + \(path)")
        }
        return url
    }

    /// The request for an `HTTPClient`.
    public func request() throws(APIError) -> HTTPRequest {
        HTTPRequest(url: try url(), method: method, headers: headers, timeout: timeout)
    }

    /// Characters left as they are in a query name or value: RFC 3986 unreserved.
    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    private static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }
}

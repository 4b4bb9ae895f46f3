public import Foundation

/// Why an API call failed, one case per situation a person or a view model handles differently.
public enum APIError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The request never got an answer: connection refused or dropped, DNS, TLS, ...
    case transport(String)
    /// The answer did not come in time.
    case timeout
    /// The device is offline.
    case offline
    /// The server answered with a status outside 2xx.
    case status(Int, body: Data)
    /// The server answered 2xx with no body.
    case emptyBody
    /// The body did not decode; `path` locates the problem, such as `feed.results[3].id`.
    case decoding(path: String, description: String)
    /// The URL could not be built.
    case invalidURL(String)
    /// The request was cancelled.
    case cancelled

    /// A sentence a person can read, for an error state in the UI.
    public var message: String {
        switch self {
        case .transport: "Couldn't reach the server. Check your connection and try again."
        case .timeout: "The server took too long to answer. Try again."
        case .offline: "You're offline. Connect to the internet and try again."
        case .status(let code, _) where (500..<600).contains(code):
            "The server had a problem (error \(code)). Try again later."
        case .status(404, _): "That wasn't found on the server (error 404)."
        case .status(let code, _): "The server refused the request (error \(code))."
        case .emptyBody: "The server sent an empty answer."
        case .decoding: "The server's answer couldn't be read."
        case .invalidURL: "The request couldn't be made (invalid address)."
        case .cancelled: "The request was cancelled."
        }
    }

    /// The message plus the technical detail, for logs.
    public var description: String {
        switch self {
        case .transport(let detail): "transport failure: \(detail)"
        case .timeout: "timed out"
        case .offline: "offline"
        case .status(let code, let body): "HTTP \(code): \(String(decoding: body.prefix(200), as: UTF8.self))"
        case .emptyBody: "empty body"
        case .decoding(let path, let description):
            "undecodable body at \(path.isEmpty ? "top level" : path): \(description)"
        case .invalidURL(let detail): "invalid URL: \(detail)"
        case .cancelled: "cancelled"
        }
    }
}

public import Foundation
public import Networking

/// Why an image could not be loaded.
public enum ImageCacheError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The download failed: transport, status outside 2xx, empty body, ...
    case network(APIError)
    /// The answer was not a PNG, JPEG, GIF or WebP image.
    case notAnImage(URL, contentType: String?)
    /// This load was cancelled; other loads of the same URL go on.
    case cancelled

    public var description: String {
        switch self {
        case .network(let error): "image download failed: \(error)"
        case .notAnImage(let url, let type): "not an image (\(type ?? "no Content-Type")): \(url.absoluteString)"
        case .cancelled: "image load cancelled"
        }
    }
}

public import Foundation

/// Loads image bytes for a URL; `ImageCache` is the real one, view-model tests use a fake.
public protocol ImageLoading: Sendable {
    /// - Throws: `ImageCacheError` when the image cannot be loaded.
    func image(for url: URL) async throws(ImageCacheError) -> Data
}

extension ImageCache: ImageLoading {}

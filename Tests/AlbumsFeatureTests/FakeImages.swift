import Foundation
import ImageCache

/// An `ImageLoading` that answers from a table; a URL the test did not list is a loud failure.
struct FakeImages: ImageLoading {
    var answers: [URL: Result<Data, ImageCacheError>]

    func image(for url: URL) async throws(ImageCacheError) -> Data {
        guard let answer = answers[url] else {
            throw .network(.transport("FakeImages has no answer for \(url)"))
        }
        return try answer.get()
    }
}

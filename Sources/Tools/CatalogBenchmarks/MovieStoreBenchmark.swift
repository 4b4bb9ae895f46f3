import Foundation
import MoviesFeature

/// Replacing the stored list with 1,000 movies, on a file, as a search's `saveAll` does.
enum MovieStoreBenchmark {
    static func replaceThousand() async throws -> BenchmarkResult {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteMovieStore(url: directory.appendingPathComponent("Movies.sqlite"))
        let batches = (0..<2).map { batch in
            (0..<1000).map { index in
                Movie(
                    id: batch * 10_000 + index, name: "Movie \(index)", trackPrice: 9.99, currency: "AUD",
                    previewURL: URL(string: "https://video.example/\(index).m4v"),
                    artworkURL: URL(string: "https://art.example/\(index).jpg"),
                    genre: "Drama", longDescription: String(repeating: "A long description. ", count: 10))
            }
        }
        var flip = 0
        return try await BenchmarkResult.measure(iterations: 30, unit: "replace of 1000 movies") {
            flip ^= 1
            try await store.saveAll(batches[flip])
        }
    }
}

import Foundation
import Networking

/// `{"resultCount": N, "results": [...]}`: results without a `trackId` or name are skipped, and each id is kept once.
struct MovieSearchResponse: Decodable {
    let movies: [Movie]

    private enum Keys: String, CodingKey {
        case results
    }

    init(from decoder: any Decoder) throws {
        let results = try decoder.container(keyedBy: Keys.self).decode([Lenient<Movie>].self, forKey: .results)
        var seen = Set<Int>()
        movies = results.compactMap(\.value).filter { seen.insert($0.id).inserted }
    }
}

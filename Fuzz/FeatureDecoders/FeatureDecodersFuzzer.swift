// libFuzzer target for the apps' JSON decoders: the bytes of an answer decoded as the albums feed, the
// desserts list, a meal lookup, an iTunes track search page and a movie search, the way the clients decode them
// (`JSONDecoder`, then `APIError(decoding:)` for a failure). Compiled by Fuzz/run.sh against Sources/Apps/Networking,
// ImageCache, Playback, Persistence (the system's SQLite), AlbumsFeature, DessertsFeature, TrackSearchFeature and
// MoviesFeature built as libraries.
// Properties, not only survival:
// - every failure maps to `APIError.decoding` with a description;
// - what decodes is well formed: lists hold no duplicates where the decoder drops them, names are trimmed
//   where it trims them (checked by decoding twice: the result is stable).
//
// Byte 0 picks the type (mod 5); the rest is the answer. Seeds: the MockData answers, in
// Fuzz/seeds/feature-decoders with the matching first byte.

import Foundation

@testable import AlbumsFeature
@testable import DessertsFeature
@testable import MoviesFeature
@testable import Networking
@testable import TrackSearchFeature

/// Decodes `data` as `T` as the clients do; nil when it does not fit. Decoding is a function of the bytes: the
/// same answer decodes to the same value twice.
func decode<T: Decodable, V: Equatable>(_ type: T.Type, _ data: Data, _ value: (T) -> V) -> T? {
    let first: T
    do {
        first = try JSONDecoder().decode(type, from: data)
    } catch {
        guard case .decoding(_, let description) = APIError(decoding: error), !description.isEmpty else {
            fatalError("a decoding failure became \(APIError(decoding: error))")
        }
        return nil
    }
    let second = try? JSONDecoder().decode(type, from: data)
    precondition(second.map(value) == value(first), "decoding \(type) twice gave two values")
    return first
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFeatureDecoders(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let data = Data(UnsafeBufferPointer(start: bytes + 1, count: size - 1))
    switch bytes[0] % 5 {
    case 0:
        _ = decode(AlbumFeed.self, data) { $0 }
    case 1:
        if let list = decode(DessertListResponse.self, data, { $0.desserts }) {
            // As documented: entries with a non-blank id and name, each id once.
            precondition(Set(list.desserts.map(\.id)).count == list.desserts.count, "a dessert id twice")
            precondition(
                list.desserts.allSatisfy {
                    !$0.id.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
                        && !$0.name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
                }, "a blank dessert")
        }
    case 2:
        _ = decode(MealLookupResponse.self, data) { $0.meal }
    case 3:
        _ = decode(TrackSearchResponse.self, data) { $0.tracks }
    default:
        if let page = decode(MovieSearchResponse.self, data, { $0.movies }) {
            // As documented: each movie id once.
            precondition(Set(page.movies.map(\.id)).count == page.movies.count, "a movie id twice")
        }
    }
    return 0
}

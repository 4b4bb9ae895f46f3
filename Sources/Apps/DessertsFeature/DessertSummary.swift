public import Foundation
import Networking

/// One entry of the desserts list.
public struct DessertSummary: Sendable, Equatable, Identifiable {
    public var id: String
    public var name: String
    public var thumbnailURL: URL?

    public init(id: String, name: String, thumbnailURL: URL? = nil) {
        self.id = id
        self.name = name
        self.thumbnailURL = thumbnailURL
    }
}

/// The answer of `filter.php`: `{"meals": [...]}`, or `{"meals": null}` when there are none.
struct DessertListResponse: Decodable {
    let desserts: [DessertSummary]

    private enum Keys: String, CodingKey {
        case meals, idMeal, strMeal, strMealThumb
    }

    /// Keeps entries with a non-blank id and name, each id once (the first wins).
    init(from decoder: any Decoder) throws {
        let root = try decoder.container(keyedBy: Keys.self)
        guard var meals = try? root.nestedUnkeyedContainer(forKey: .meals) else {
            guard try root.decodeNil(forKey: .meals) else {
                throw DecodingError.typeMismatch(
                    [DessertSummary].self,
                    .init(codingPath: [Keys.meals], debugDescription: "meals must be an array or null"))
            }
            desserts = []
            return
        }
        var seen = Set<String>()
        var list: [DessertSummary] = []
        while !meals.isAtEnd {
            guard let meal = try? meals.nestedContainer(keyedBy: Keys.self) else {
                _ = try? meals.decode(Skip.self)
                continue
            }
            guard let id = meal.lenientString(.idMeal), let name = meal.lenientString(.strMeal),
                seen.insert(id).inserted
            else { continue }
            list.append(DessertSummary(id: id, name: name, thumbnailURL: meal.webURL(.strMealThumb)))
        }
        desserts = list
    }

    /// Consumes one element of any type.
    private struct Skip: Decodable {
        init(from decoder: any Decoder) throws {}
    }
}

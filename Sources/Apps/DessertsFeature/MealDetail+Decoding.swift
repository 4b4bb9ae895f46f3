import Foundation
import Networking

extension MealDetail: Decodable {
    /// Any key, for the numbered `strIngredientN` and `strMeasureN` fields.
    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }

        init(stringValue: String) {
            self.stringValue = stringValue
        }

        init?(intValue: Int) {
            nil
        }
    }

    /// Decodes one meal; null and empty strings both mean "no value" for every field.
    /// - Throws: `DecodingError` when the meal has no id or no name.
    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: AnyKey.self)
        func text(_ name: String) -> String? { fields.lenientString(AnyKey(stringValue: name)) }
        guard let id = text("idMeal"), let name = text("strMeal") else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "meal without idMeal or strMeal"))
        }
        self.id = id
        self.name = name
        category = text("strCategory")
        area = text("strArea")
        tags = (text("strTags") ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            !$0.isBlank
        }
        paragraphs = Self.paragraphs(text("strInstructions") ?? "")
        thumbnailURL = fields.webURL(AnyKey(stringValue: "strMealThumb"))
        youtubeURL = fields.webURL(AnyKey(stringValue: "strYoutube"))
        sourceURL = fields.webURL(AnyKey(stringValue: "strSource"))
        ingredients = Self.ingredients(in: fields)
    }

    /// Pairs `strIngredientN` with `strMeasureN` by N, in numeric order, for any N; a slot without an ingredient
    /// is left out, an ingredient without a measure keeps an empty one.
    static func ingredients(in fields: KeyedDecodingContainer<AnyKey>) -> [Ingredient] {
        let prefix = "strIngredient"
        let numbers = fields.allKeys.compactMap { key -> Int? in
            guard key.stringValue.hasPrefix(prefix) else { return nil }
            return Int(key.stringValue.dropFirst(prefix.count))
        }
        return numbers.sorted().compactMap { number in
            guard let name = fields.lenientString(AnyKey(stringValue: "\(prefix)\(number)")) else { return nil }
            return Ingredient(name, fields.lenientString(AnyKey(stringValue: "strMeasure\(number)")) ?? "")
        }
    }

    static func paragraphs(_ text: String) -> [String] {
        text.replacingOccurrences(of: "\r\n", with: "\n").split(whereSeparator: { $0 == "\n" || $0 == "\r" })
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isBlank }
    }
}

/// The answer of `lookup.php`: `{"meals": [meal]}`, or `{"meals": null}` for an unknown id.
struct MealLookupResponse: Decodable {
    let meal: MealDetail?

    private enum Keys: String, CodingKey {
        case meals
    }

    init(from decoder: any Decoder) throws {
        let root = try decoder.container(keyedBy: Keys.self)
        if try root.decodeNil(forKey: .meals) {
            meal = nil
        } else {
            meal = try root.decode([MealDetail].self, forKey: .meals).first
        }
    }
}

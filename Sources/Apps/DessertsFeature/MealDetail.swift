public import Foundation

/// One meal's full record from `lookup.php`.
public struct MealDetail: Sendable, Equatable, Identifiable {
    public var id: String
    public var name: String
    public var category: String?
    public var area: String?
    /// `strTags` split at commas, trimmed, blanks dropped.
    public var tags: [String]
    /// `strInstructions` split at line breaks (`\r\n`, `\n`, `\r`), trimmed, blank lines dropped.
    public var paragraphs: [String]
    public var thumbnailURL: URL?
    public var youtubeURL: URL?
    public var sourceURL: URL?
    public var ingredients: [Ingredient]

    public init(
        id: String, name: String, category: String? = nil, area: String? = nil, tags: [String] = [],
        paragraphs: [String] = [], thumbnailURL: URL? = nil, youtubeURL: URL? = nil, sourceURL: URL? = nil,
        ingredients: [Ingredient] = []
    ) {
        self.id = id
        self.name = name
        self.category = category
        self.area = area
        self.tags = tags
        self.paragraphs = paragraphs
        self.thumbnailURL = thumbnailURL
        self.youtubeURL = youtubeURL
        self.sourceURL = sourceURL
        self.ingredients = ingredients
    }

    /// An ingredient with its measure; the measure is empty when the record gives none.
    public struct Ingredient: Sendable, Equatable {
        public var name: String
        public var measure: String

        public init(_ name: String, _ measure: String) {
            self.name = name
            self.measure = measure
        }
    }
}

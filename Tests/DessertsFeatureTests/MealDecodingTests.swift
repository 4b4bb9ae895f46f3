import Foundation
import Networking
import TestTurns
import Testing

@testable import DessertsFeature

@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct MealDecodingTests {
    private func meal(_ json: String) throws -> MealDetail? {
        try JSONDecoder().decode(MealLookupResponse.self, from: Data(json.utf8)).meal
    }

    private func list(_ json: String) throws -> [DessertSummary] {
        try JSONDecoder().decode(DessertListResponse.self, from: Data(json.utf8)).desserts
    }

    @Test func ingredients_pairByNumberInNumericOrderForAnyN() throws {
        let detail = try #require(
            try meal(
                #"""
                {"meals":[{"idMeal":"1","strMeal":"Test",
                  "strIngredient10":"Tenth","strMeasure10":"10g",
                  "strIngredient2":" Second ","strMeasure2":" 2 tbs ",
                  "strIngredient1":"First","strMeasure1":"1 cup",
                  "strIngredient25":"Twenty-fifth","strMeasure25":null,
                  "strIngredient3":"","strMeasure3":"orphan measure",
                  "strIngredient4":null,"strMeasure4":null,
                  "strMeasure5":"no ingredient key",
                  "strIngredient6":"   ","strMeasure6":"blank ingredient",
                  "strIngredient7":"No measure key"}]}
                """#))
        #expect(
            detail.ingredients == [
                .init("First", "1 cup"), .init("Second", "2 tbs"), .init("No measure key", ""), .init("Tenth", "10g"),
                .init("Twenty-fifth", ""),
            ])
    }

    @Test func emptyStringsAndNulls_meanTheSame() throws {
        let withEmpty = try #require(
            try meal(
                #"{"meals":[{"idMeal":"1","strMeal":"A","strTags":"","strArea":"","strIngredient1":"X","strMeasure1":""}]}"#
            ))
        let withNull = try #require(
            try meal(
                #"{"meals":[{"idMeal":"1","strMeal":"A","strTags":null,"strArea":null,"strIngredient1":"X","strMeasure1":null}]}"#
            ))
        #expect(withEmpty == withNull)
        #expect(withEmpty.tags.isEmpty && withEmpty.area == nil)
        #expect(withEmpty.ingredients == [.init("X", "")])
    }

    @Test(arguments: [
        ("Line one.\r\nLine two.\r\n\r\nLine three.", ["Line one.", "Line two.", "Line three."]),
        ("Unix one.\nUnix two.\n\n  ", ["Unix one.", "Unix two."]),
        ("Old Mac.\rStill Mac.", ["Old Mac.", "Still Mac."]),
        ("One paragraph only", ["One paragraph only"]),
        ("", []),
    ])
    func instructions_splitIntoParagraphs(_ text: String, expected: [String]) {
        #expect(MealDetail.paragraphs(text) == expected)
    }

    @Test func fields_decodeWithTagsAndLinks() throws {
        let detail = try #require(
            try meal(
                #"""
                {"meals":[{"idMeal":"52893","strMeal":"Crumble","strCategory":"Dessert","strArea":"British",
                  "strTags":"Pudding, Baking ,,Fruity","strYoutube":"https:\/\/www.youtube.com\/watch?v=4vhcOwVBDO4",
                  "strSource":"not a url","strMealThumb":"https:\/\/www.themealdb.com\/a.jpg","strInstructions":"Bake."}]}
                """#))
        #expect(detail.id == "52893")
        #expect(detail.category == "Dessert")
        #expect(detail.area == "British")
        #expect(detail.tags == ["Pudding", "Baking", "Fruity"])
        #expect(detail.youtubeURL?.absoluteString == "https://www.youtube.com/watch?v=4vhcOwVBDO4")
        #expect(detail.sourceURL == nil)
        #expect(detail.thumbnailURL?.host == "www.themealdb.com")
        #expect(detail.paragraphs == ["Bake."])
    }

    @Test(arguments: [#"{"meals":null}"#, #"{"meals":[]}"#])
    func unknownIDs_decodeAsNoMeal(_ json: String) throws {
        #expect(try meal(json) == nil)
    }

    @Test(arguments: [#"{"meals":[{"strMeal":"No id"}]}"#, #"{"meals":"x"}"#, #"{}"#, "[]"])
    func brokenLookups_fail(_ json: String) {
        #expect(throws: DecodingError.self) { try meal(json) }
    }

    @Test func list_dropsBlankAndDuplicateEntries() throws {
        let desserts = try list(
            #"""
            {"meals":[{"strMeal":"B","strMealThumb":"https:\/\/x\/b.jpg","idMeal":"2"},
              {"strMeal":"No id","idMeal":null},{"strMeal":"  ","idMeal":"3"},{"strMeal":"Dup","idMeal":"2"},
              "junk",{"strMeal":"Numeric","idMeal":4,"strMealThumb":"ftp://x"},{"strMeal":"A","idMeal":" 1 "}]}
            """#)
        #expect(
            desserts == [
                DessertSummary(id: "2", name: "B", thumbnailURL: URL(string: "https://x/b.jpg")),
                DessertSummary(id: "4", name: "Numeric"), DessertSummary(id: "1", name: "A"),
            ])
    }

    @Test func list_nullMealsIsAnEmptyList() throws {
        #expect(try list(#"{"meals":null}"#).isEmpty)
        #expect(throws: DecodingError.self) { try list(#"{"meals":{}}"#) }
    }

    @Test(arguments: [
        (MealDBEndpoint.desserts, "https://themealdb.com/api/json/v1/1/filter.php?c=Dessert"),
        (.meal(id: "52893"), "https://themealdb.com/api/json/v1/1/lookup.php?i=52893"),
        (.meal(id: "a b&c"), "https://themealdb.com/api/json/v1/1/lookup.php?i=a%20b%26c"),
    ])
    func endpoints_buildTheAPIURLs(_ endpoint: MealDBEndpoint, expected: String) throws {
        #expect(try endpoint.endpoint().url().absoluteString == expected)
    }
}

import DessertsFeature
import Foundation
import Networking
import StubServer
import Testing

/// The desserts feature through the real URLSession client against the stub server serving `MockData/`.
@MainActor
struct DessertsEndToEndTests {
    private func client(_ server: StubServer) -> LiveDessertsClient {
        LiveDessertsClient(http: realClient(), baseURL: server.baseURL)
    }

    @Test func list_showsTheGoodDessertsSortedWithoutBlanksOrDuplicates() async throws {
        try await withStubServer(fixtures: mockData) { server in
            let model = DessertListViewModel(client: client(server), locale: Locale(identifier: "en_US"))
            await model.viewAppeared()
            guard case .loaded(let rows) = model.state else {
                Issue.record("expected rows, got \(model.state)")
                return
            }
            #expect(
                rows.count == 29, "28 named desserts plus one with a numeric id; blanks, no-id and duplicates dropped")
            #expect(Set(rows.map(\.id)).count == rows.count)
            #expect(rows.prefix(3).map(\.name) == ["apam balik", "Apple & Blackberry Crumble", "Bakewell Tart"])
            #expect(rows.contains { $0.name == "Éclairs" })
            #expect(!rows.contains { $0.name.hasSuffix("(again)") })
            let journal = try #require(server.journal(JournalQuery(stub: "desserts")).first)
            #expect(journal.target == "/api/json/v1/1/filter.php?c=Dessert")
        }
    }

    @Test(arguments: [
        ("bad", DessertListViewModel.State.failed(APIError.decoding(path: "", description: "").message)),
        ("nil", .failed(APIError.emptyBody.message)),
        ("server-error", .failed(APIError.status(500, body: Data()).message)),
        ("drop", .failed(APIError.transport("").message)),
        ("not-found", .empty),
        ("empty", .empty),
    ])
    func list_reflectsEachVariant(_ variant: String, expected: DessertListViewModel.State) async throws {
        try await withStubServer(fixtures: mockData) { server in
            try server.setVariant(variant, forStub: "desserts")
            let model = DessertListViewModel(client: client(server))
            await model.viewAppeared()
            #expect(model.state == expected)
        }
    }

    @Test func detail_decodesEmptyStringSlots() async throws {
        try await withStubServer(fixtures: mockData) { server in
            let model = DessertDetailViewModel(id: "52893", title: "Apple & Blackberry Crumble", client: client(server))
            await model.viewAppeared()
            guard case .loaded(let meal) = model.state else {
                Issue.record("expected the meal, got \(model.state)")
                return
            }
            #expect(meal.name == "Apple & Blackberry Crumble")
            #expect(meal.area == "British")
            #expect(meal.tags == ["Pudding"])
            #expect(meal.paragraphs.count == 4, "Windows line breaks, blank line dropped")
            #expect(meal.ingredients.count == 9)
            #expect(meal.ingredients.first == .init("Plain Flour", "120g"))
            #expect(meal.ingredients.last == .init("Ice Cream", "to serve"))
            #expect(meal.youtubeURL != nil && meal.sourceURL != nil)
        }
    }

    @Test func detail_decodesNullSlotsAndSlotsBeyondTwenty() async throws {
        try await withStubServer(fixtures: mockData) { server in
            let model = DessertDetailViewModel(id: "53049", title: "Apam balik", client: client(server))
            await model.viewAppeared()
            guard case .loaded(let meal) = model.state else {
                Issue.record("expected the meal, got \(model.state)")
                return
            }
            #expect(meal.tags.isEmpty)
            #expect(meal.paragraphs.count == 3)
            #expect(meal.ingredients.map(\.name).suffix(3) == ["Roasted Peanuts", "Sweetcorn", "Condensed Milk"])
            #expect(meal.ingredients.first { $0.name == "Roasted Peanuts" }?.measure == "")
            #expect(
                !meal.ingredients.contains { $0.measure == "a pinch" }, "a measure without an ingredient is dropped")
        }
    }

    @Test func detail_ofAnUnknownIDIsNotFound() async throws {
        try await withStubServer(fixtures: mockData) { server in
            let model = DessertDetailViewModel(id: "99999", title: "Nothing", client: client(server))
            await model.viewAppeared()
            #expect(model.state == .notFound)
            #expect(
                server.journal(JournalQuery(stub: "dessert-lookup")).first?.target
                    == "/api/json/v1/1/lookup.php?i=99999")
        }
    }

    @Test(arguments: [
        ("bad", DessertDetailViewModel.State.failed(APIError.decoding(path: "", description: "").message)),
        ("nil", .failed(APIError.emptyBody.message)),
        ("server-error", .failed(APIError.status(500, body: Data()).message)),
        ("drop", .failed(APIError.transport("").message)),
        ("not-found", .notFound),
    ])
    func detail_reflectsEachVariantAndRetryRecovers(_ variant: String, expected: DessertDetailViewModel.State)
        async throws
    {
        try await withStubServer(fixtures: mockData) { server in
            try server.setVariant(variant, forStub: "dessert-crumble")
            let model = DessertDetailViewModel(id: "52893", title: "Crumble", client: client(server))
            await model.viewAppeared()
            #expect(model.state == expected)
            try server.setVariant(nil, forStub: "dessert-crumble")
            await model.retryTapped()
            guard case .loaded(let meal) = model.state else {
                Issue.record("expected the meal after retry, got \(model.state)")
                return
            }
            #expect(meal.id == "52893")
        }
    }
}

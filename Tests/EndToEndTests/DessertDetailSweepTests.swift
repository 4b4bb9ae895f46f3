import DessertsFeature
import Foundation
import Networking
import StubServerTesting
import TestTurns
import Testing

/// A dessert's page against the mutants of the good crumble lookup, as `AlbumsSweepTests` runs the albums: after
/// the load, the meal with a readable name and readable ingredients and method, not found, or a readable failure.
// Ten minutes: under SWEEP=all (CI's sweep step) thousands of cases start at once and each case's clock runs
// while it waits its turn, so a minute fails cases that are only queued.
@Suite(.takesTurns, .timeLimit(.minutes(10)))
@MainActor
struct DessertDetailSweepTests {
    @Test(arguments: try Sweep.cases(StubMutant.all(of: "dessert-crumble")))
    func theDessertPage_endsReadable(_ mutant: StubMutant) async throws {
        try await mutant.withStubs { stubs in
            let model = DessertDetailViewModel(
                id: "52893", title: "Apple & Blackberry Crumble",
                client: LiveDessertsClient(
                    http: Sweep.client(stubs.sessionConfiguration), baseURL: MealDBEndpoint.liveBaseURL))
            await model.viewAppeared()
            switch model.state {
            case .loaded(let meal):
                ScreenText.expectReadable(meal.name, "the meal's name", mutant: mutant.id)
                for ingredient in meal.ingredients {
                    ScreenText.expectReadable(ingredient.name, "an ingredient", mutant: mutant.id)
                }
                for paragraph in meal.paragraphs {
                    ScreenText.expectReadable(paragraph, "a paragraph of the method", mutant: mutant.id)
                }
            case .notFound:
                break
            case .failed(let message):
                ScreenText.expectReadable(message, "the failure", mutant: mutant.id)
            case .idle, .loading:
                Issue.record("\(mutant.id): the page is still \(model.state) after the load")
            }
        }
    }
}

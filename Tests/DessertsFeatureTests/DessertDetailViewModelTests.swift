import Foundation
import Locking
import Networking
import NetworkingTestSupport
import TestTurns
import Testing

@testable import DessertsFeature

@Suite(.takesTurns, .timeLimit(.minutes(1)))
@MainActor
struct DessertDetailViewModelTests {
    private static let crumble = MealDetail(id: "52893", name: "Crumble", ingredients: [.init("Flour", "120g")])

    private func transitions(
        _ model: DessertDetailViewModel, _ client: FakeDessertsClient, _ action: () async -> Void
    ) async -> [DessertDetailViewModel.State] {
        let seen = Lock<[DessertDetailViewModel.State]>([model.state])
        client.onCall { seen.withLock { $0.append(model.state) } }
        await action()
        seen.withLock { $0.append(model.state) }
        return seen.withLock { $0 }
    }

    @Test func viewAppeared_loadsTheMealByID() async {
        let client = FakeDessertsClient(meals: [.success(Self.crumble)])
        let model = DessertDetailViewModel(summary: DessertSummary(id: "52893", name: "Crumble"), client: client)
        #expect(model.title == "Crumble")
        #expect(
            await transitions(model, client) { await model.viewAppeared() } == [.idle, .loading, .loaded(Self.crumble)])
        #expect(client.askedIDs == ["52893"])
        await model.viewAppeared()
        #expect(client.askedIDs == ["52893"], "a loaded detail is not fetched again")
    }

    @Test func unknownID_isNotFoundRatherThanAFailure() async {
        let client = FakeDessertsClient(meals: [.success(nil)])
        let model = DessertDetailViewModel(id: "0", title: "Gone", client: client)
        #expect(await transitions(model, client) { await model.viewAppeared() } == [.idle, .loading, .notFound])
    }

    @Test(arguments: [
        APIError.status(503, body: Data()), .decoding(path: "", description: "html"), .transport("dropped"), .timeout,
    ])
    func failures_areReadableAndRetryWorks(_ error: APIError) async {
        let client = FakeDessertsClient(meals: [.failure(error), .success(Self.crumble)])
        let model = DessertDetailViewModel(id: "52893", title: "Crumble", client: client)
        await model.viewAppeared()
        #expect(model.state == .failed(error.message))
        #expect(
            await transitions(model, client) { await model.retryTapped() } == [
                .failed(error.message), .loading, .loaded(Self.crumble),
            ])
    }

    @Test func aSlowLoadThatFailsAfterARetrySucceeded_doesNotOverwriteIt() async throws {
        let gate = Gate()
        let client = FakeDessertsClient(meals: [.failure(.timeout), .success(Self.crumble)])
        client.holdNextMeal(at: gate)
        let model = DessertDetailViewModel(id: "52893", title: "Crumble", client: client)
        let slow = Task { await model.viewAppeared() }
        try await gate.waitUntilEntered()
        #expect(model.state == .loading)
        await model.retryTapped()
        #expect(model.state == .loaded(Self.crumble))
        gate.open()
        await slow.value
        #expect(model.state == .loaded(Self.crumble), "the older answer arrived last and was dropped")
    }
}

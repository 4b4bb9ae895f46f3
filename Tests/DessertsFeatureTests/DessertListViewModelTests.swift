import Foundation
import Locking
import Networking
import TestTurns
import Testing

@testable import DessertsFeature

@Suite(.takesTurns, .timeLimit(.minutes(1)))
@MainActor
struct DessertListViewModelTests {
    private func transitions(
        _ model: DessertListViewModel, _ client: FakeDessertsClient, _ action: () async -> Void
    ) async -> [DessertListViewModel.State] {
        let seen = Lock<[DessertListViewModel.State]>([model.state])
        client.onCall { seen.withLock { $0.append(model.state) } }
        await action()
        seen.withLock { $0.append(model.state) }
        return seen.withLock { $0 }
    }

    @Test func viewAppeared_loadsDessertsSortedCaseInsensitively() async {
        let unsorted = [
            DessertSummary(id: "3", name: "christmas cake"), DessertSummary(id: "1", name: "Éclairs"),
            DessertSummary(id: "2", name: "Apple Crumble"), DessertSummary(id: "4", name: "Christmas Pudding"),
            DessertSummary(id: "5", name: "apam balik"), DessertSummary(id: "6", name: "Zabaglione"),
        ]
        let client = FakeDessertsClient(lists: [.success(unsorted)])
        let model = DessertListViewModel(client: client, locale: Locale(identifier: "en_US"))
        let states = await transitions(model, client) { await model.viewAppeared() }
        #expect(states.prefix(2) == [.idle, .loading])
        guard case .loaded(let rows) = states.last else {
            Issue.record("expected rows, got \(String(describing: states.last))")
            return
        }
        #expect(
            rows.map(\.name) == [
                "apam balik", "Apple Crumble", "christmas cake", "Christmas Pudding", "Éclairs", "Zabaglione",
            ])
    }

    @Test func sorting_followsTheLocale() {
        let desserts = [DessertSummary(id: "1", name: "Ötzi Torte"), DessertSummary(id: "2", name: "Zimtsterne")]
        #expect(DessertListViewModel.sorted(desserts, locale: Locale(identifier: "de_DE")).map(\.id) == ["1", "2"])
        #expect(DessertListViewModel.sorted(desserts, locale: Locale(identifier: "sv_SE")).map(\.id) == ["2", "1"])
    }

    @Test func sorting_breaksTiesByID() {
        let desserts = [DessertSummary(id: "b", name: "Tart"), DessertSummary(id: "a", name: "tart")]
        #expect(DessertListViewModel.sorted(desserts, locale: Locale(identifier: "en_US")).map(\.id) == ["a", "b"])
    }

    @Test func viewAppeared_showsEmpty() async {
        let client = FakeDessertsClient(lists: [.success([])])
        let model = DessertListViewModel(client: client)
        #expect(await transitions(model, client) { await model.viewAppeared() } == [.idle, .loading, .empty])
    }

    @Test(arguments: [
        APIError.status(500, body: Data()), .decoding(path: "meals", description: "x"), .transport("lost"), .emptyBody,
    ])
    func viewAppeared_failsReadablyAndRetryRecovers(_ error: APIError) async {
        let client = FakeDessertsClient(lists: [.failure(error), .success([DessertSummary(id: "1", name: "Pie")])])
        let model = DessertListViewModel(client: client)
        #expect(
            await transitions(model, client) { await model.viewAppeared() } == [
                .idle, .loading, .failed(error.message),
            ])
        await model.viewAppeared()
        #expect(model.state == .failed(error.message), "appearing again does not retry by itself")
        #expect(
            await transitions(model, client) { await model.retryTapped() } == [
                .failed(error.message), .loading, .loaded([DessertSummary(id: "1", name: "Pie")]),
            ])
    }

    @Test func refreshPulled_replacesTheList() async {
        let client = FakeDessertsClient(lists: [
            .success([DessertSummary(id: "1", name: "Pie")]), .success([DessertSummary(id: "2", name: "Tart")]),
        ])
        let model = DessertListViewModel(client: client)
        await model.viewAppeared()
        await model.refreshPulled()
        #expect(model.state == .loaded([DessertSummary(id: "2", name: "Tart")]))
    }
}

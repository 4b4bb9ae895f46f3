import Foundation
import Locking
import Networking
import NetworkingTestSupport
import TestTurns
import Testing

@testable import TopSongsFeature

/// A `TopSongsClient` answering from a queue; an empty queue fails loudly.
final class FakeTopSongsClient: TopSongsClient {
    private let results: ResultQueue<[Song]>
    private let hold = Lock<Gate?>(nil)

    init(_ results: [Result<[Song], APIError>]) {
        self.results = ResultQueue("FakeTopSongsClient", results)
    }

    var remaining: Int { results.remaining }

    /// Makes the next call take its answer, then wait at `gate` before giving it.
    func holdNextCall(at gate: Gate) {
        hold.withLock { $0 = gate }
    }

    func topSongs() async throws(APIError) -> [Song] {
        let gate = hold.withLock { gate in
            defer { gate = nil }
            return gate
        }
        let answer = Result { () throws(APIError) in try results.next(for: "topSongs()") }
        await gate?.pass()
        return try answer.get()
    }
}

@MainActor
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct TopSongsViewModelTests {
    static let songs = [Song(id: "1", name: "A"), Song(id: "2", name: "B")]

    @Test func viewAppeared_loadsTheSongs() async {
        let model = TopSongsViewModel(
            client: FakeTopSongsClient([.success(Self.songs)]),
            queue: OnlineWorkQueue(monitor: FakeConnectivityMonitor()))
        await model.viewAppeared()
        #expect(model.state == .loaded(Self.songs))
        #expect(model.offlineNotice == nil)
    }

    @Test(arguments: [
        (Result<[Song], APIError>.success([]), TopSongsViewModel.State.empty),
        (
            .failure(.decoding(path: "line 3, column 4", description: "mismatched tag")),
            .failed(APIError.decoding(path: "", description: "").message)
        ),
        (.failure(.status(503, body: Data())), .failed(APIError.status(503, body: Data()).message)),
        (.failure(.emptyBody), .failed(APIError.emptyBody.message)),
    ])
    func viewAppeared_showsEmptyOrAReadableFailure(
        _ result: Result<[Song], APIError>, expected: TopSongsViewModel.State
    ) async {
        let model = TopSongsViewModel(
            client: FakeTopSongsClient([result]), queue: OnlineWorkQueue(monitor: FakeConnectivityMonitor()))
        await model.viewAppeared()
        #expect(model.state == expected)
    }

    @Test func reload_replacesTheListInsteadOfAppending() async {
        let second = [Song(id: "3", name: "C")]
        let client = FakeTopSongsClient([.success(Self.songs), .success(second)])
        let model = TopSongsViewModel(client: client, queue: OnlineWorkQueue(monitor: FakeConnectivityMonitor()))
        await model.viewAppeared()
        await model.viewAppeared()
        #expect(client.remaining == 1, "appearing again does not reload")
        await model.reloadTapped()
        #expect(model.state == .loaded(second))
    }

    @Test func aSlowLoadThatFailsAfterAReloadSucceeded_doesNotOverwriteIt() async throws {
        let gate = Gate()
        let client = FakeTopSongsClient([.failure(.timeout), .success(Self.songs)])
        client.holdNextCall(at: gate)
        let model = TopSongsViewModel(client: client, queue: OnlineWorkQueue(monitor: FakeConnectivityMonitor()))
        let slow = Task { await model.viewAppeared() }
        try await gate.waitUntilEntered()
        await model.reloadTapped()
        #expect(model.state == .loaded(Self.songs))
        gate.open()
        await slow.value
        #expect(model.state == .loaded(Self.songs), "the older answer arrived last and was dropped")
    }

    @Test func offline_showsANoticeAndLoadsWhenTheNetworkReturns() async throws {
        let monitor = FakeConnectivityMonitor(.unsatisfied)
        let queue = OnlineWorkQueue(monitor: monitor)
        let model = TopSongsViewModel(client: FakeTopSongsClient([.success(Self.songs)]), queue: queue)
        let watcher = Task { await model.monitorConnectivity() }
        defer { watcher.cancel() }
        await model.viewAppeared()
        #expect(model.state == .idle)
        #expect(model.offlineNotice == "You're offline. The songs will load when you're back online.")
        monitor.set(.satisfied)
        try await waitUntil("the songs to load") { model.state == .loaded(Self.songs) }
        #expect(model.offlineNotice == nil)
    }
}

@MainActor
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct OnlineWorkQueueTests {
    @MainActor
    final class Log {
        var entries: [String] = []
    }

    @Test func online_runsWorkAtOnce() async {
        let queue = OnlineWorkQueue(monitor: FakeConnectivityMonitor(.satisfied))
        let log = Log()
        let token = await queue.submit { log.entries.append("now") }
        #expect(token == nil)
        #expect(log.entries == ["now"])
        #expect(!queue.isOffline)
    }

    @Test func offline_queuesEveryPieceAndRunsAllInOrderOnceWhenOnline() async throws {
        let monitor = FakeConnectivityMonitor(.unsatisfied)
        let queue = OnlineWorkQueue(monitor: monitor)
        let log = Log()
        for name in ["first", "second", "third"] {
            #expect(await queue.submit { log.entries.append(name) } != nil)
        }
        #expect(queue.isOffline)
        #expect(queue.pendingCount == 3)
        #expect(log.entries.isEmpty)
        let watcher = Task { await queue.monitorConnectivity() }
        defer { watcher.cancel() }
        monitor.set(.requiresConnection)
        monitor.set(.satisfied)
        try await waitUntil("three log entries") { log.entries.count >= 3 }
        monitor.set(.unsatisfied)
        monitor.set(.satisfied)
        try await waitUntil("the queue to go online") { !queue.isOffline }
        #expect(log.entries == ["first", "second", "third"], "each piece ran exactly once, in order")
        #expect(queue.pendingCount == 0)
    }

    @Test func queuedWork_canBeCancelled() async throws {
        let monitor = FakeConnectivityMonitor(.unsatisfied)
        let queue = OnlineWorkQueue(monitor: monitor)
        let log = Log()
        let first = await queue.submit { log.entries.append("first") }
        _ = await queue.submit { log.entries.append("second") }
        if let first { queue.cancel(first) }
        #expect(queue.pendingCount == 1)
        queue.cancelAll()
        #expect(queue.pendingCount == 0)
        let watcher = Task { await queue.monitorConnectivity() }
        defer { watcher.cancel() }
        monitor.set(.satisfied)
        try await waitUntil("the queue to go online") { !queue.isOffline }
        #expect(log.entries.isEmpty)
    }

    @Test func cancellingOnePiece_keepsTheOthersInOrder() async throws {
        let monitor = FakeConnectivityMonitor(.unsatisfied)
        let queue = OnlineWorkQueue(monitor: monitor)
        let log = Log()
        _ = await queue.submit { log.entries.append("first") }
        let second = try #require(await queue.submit { log.entries.append("second") })
        _ = await queue.submit { log.entries.append("third") }
        queue.cancel(second)
        #expect(queue.pendingCount == 2)
        let watcher = Task { await queue.monitorConnectivity() }
        defer { watcher.cancel() }
        monitor.set(.satisfied)
        try await waitUntil("the two remaining pieces to run") { log.entries.count >= 2 }
        #expect(log.entries == ["first", "third"])
    }

    @Test func workSubmittedWhileOthersWait_joinsTheQueueEvenIfOnline() async {
        let monitor = FakeConnectivityMonitor(.unsatisfied)
        let queue = OnlineWorkQueue(monitor: monitor)
        let log = Log()
        _ = await queue.submit { log.entries.append("waited") }
        monitor.set(.satisfied)
        _ = await queue.submit { log.entries.append("later") }
        #expect(log.entries == ["waited", "later"], "later work never overtakes what waited")
    }
}

import Foundation
import Networking
import NetworkingTestSupport
import StubServer
import TestTurns
import Testing

@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct ConnectivityMonitorTests {
    @Test func probing_isSatisfiedByAnyHTTPAnswer() async {
        let monitor = ProbingConnectivityMonitor(
            client: FakeHTTPClient(status: 404, body: Data()), probe: URL(string: "http://x")!)
        #expect(await monitor.status == .satisfied)
    }

    @Test(arguments: [APIError.transport("refused"), .timeout, .offline])
    func probing_isUnsatisfiedByTransportFailures(_ error: APIError) async {
        let monitor = ProbingConnectivityMonitor(
            client: FakeHTTPClient(failing: error), probe: URL(string: "http://x")!)
        #expect(await monitor.status == .unsatisfied)
    }

    /// The monitor probes every 20 ms and must report each change as it happens: the test runs it as a prompt
    /// peer (`promptly`), not behind every job the rest of the suite has queued.
    @Test func probing_reportsChangesAsTheServerComesAndGoes() async throws {
        try await promptly { try await Self.reportsChangesAsTheServerComesAndGoes() }
    }

    private static func reportsChangesAsTheServerComesAndGoes() async throws {
        let root = try #require(StubCatalog.findFolder())
        let server = try StubServer.start(fixtures: root)
        let client = FakeHTTPClient()
        let realClient = URLSessionHTTPClient()
        client.respond { request throws(APIError) in try await realClient.send(request) }
        let monitor = ProbingConnectivityMonitor(
            client: client, probe: server.baseURL.appendingPathComponent("__stub/health"), interval: .milliseconds(20))
        // Updates are collected elsewhere and awaited with a bound: a monitor that never reports a change (or a
        // server that never answers) fails the test within seconds instead of leaving `next()` waiting forever.
        let seen = Updates()
        let watcher = Task { for await status in monitor.updates() { await seen.append(status) } }
        defer { watcher.cancel() }
        // A first probe slower than its timeout on a loaded machine may report `.unsatisfied` first: what must
        // hold is that it comes to `.satisfied`, then to `.unsatisfied` once the server stops, reporting changes only.
        try await waitUntil("the server to be seen") { await seen.values.last == .satisfied }
        await server.stop()
        try await waitUntil("the stop to be seen") { await seen.values.last == .unsatisfied }
        let values = await seen.values
        #expect(values.suffix(2) == [.satisfied, .unsatisfied])
        #expect(zip(values, values.dropFirst()).allSatisfy { $0 != $1 }, "changes only: \(values)")
        #expect(await monitor.status == .unsatisfied)
    }

    /// The statuses a monitor reported, in order.
    actor Updates {
        private(set) var values: [ConnectivityStatus] = []

        func append(_ status: ConnectivityStatus) {
            values.append(status)
        }
    }

    @Test func fake_yieldsTheCurrentStatusThenEveryChange() async {
        let monitor = FakeConnectivityMonitor(.unsatisfied)
        var updates = monitor.updates().makeAsyncIterator()
        #expect(await updates.next() == .unsatisfied)
        monitor.set(.requiresConnection)
        monitor.set(.satisfied)
        #expect(await updates.next() == .requiresConnection)
        #expect(await updates.next() == .satisfied)
        #expect(await monitor.status == .satisfied)
    }
}

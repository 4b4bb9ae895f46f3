import Foundation
import Networking
import NetworkingTestSupport
import StubServer
import Testing

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

    @Test func probing_reportsChangesAsTheServerComesAndGoes() async throws {
        let root = try #require(StubCatalog.findFolder())
        let server = try StubServer.start(fixtures: root)
        let client = FakeHTTPClient()
        let realClient = URLSessionHTTPClient()
        client.respond { request throws(APIError) in try await realClient.send(request) }
        let monitor = ProbingConnectivityMonitor(
            client: client, probe: server.baseURL.appendingPathComponent("__stub/health"), interval: .milliseconds(20))
        var updates = monitor.updates().makeAsyncIterator()
        #expect(await updates.next() == .satisfied)
        await server.stop()
        #expect(await updates.next() == .unsatisfied)
        #expect(await monitor.status == .unsatisfied)
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

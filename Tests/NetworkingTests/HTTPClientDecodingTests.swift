import Foundation
import Networking
import NetworkingTestSupport
import TestTurns
import Testing

@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct HTTPClientDecodingTests {
    private struct Feed: Decodable, Equatable {
        struct Item: Decodable, Equatable {
            var id: String
        }
        var items: [Item]
    }

    private let endpoint = Endpoint(baseURL: URL(string: "http://127.0.0.1:1")!, path: "/feed")

    @Test func decode_returnsTheValueOfA2xxBody() async throws {
        let client = FakeHTTPClient(status: 200, body: Data(#"{"items":[{"id":"a"}]}"#.utf8))
        let feed = try await client.decode(Feed.self, from: endpoint)
        #expect(feed == Feed(items: [.init(id: "a")]))
        #expect(client.requests.map(\.url.absoluteString) == ["http://127.0.0.1:1/feed"])
    }

    @Test(arguments: [
        (404, "missing", APIError.status(404, body: Data("missing".utf8))),
        (503, "", APIError.status(503, body: Data())),
        (301, "moved", APIError.status(301, body: Data("moved".utf8))),
        (200, "", APIError.emptyBody),
        (204, "", APIError.emptyBody),
    ])
    func data_rejectsNon2xxAndEmptyBodies(_ status: Int, _ body: String, expected: APIError) async {
        let client = FakeHTTPClient(status: status, body: Data(body.utf8))
        await #expect(throws: expected) { try await client.data(for: endpoint) }
    }

    @Test(arguments: [
        (#"{"items":[{"id":"a"},{"id":7}]}"#, "items[1].id"),
        (#"{"items":[{"name":"a"}]}"#, "items[0].id"),
        (#"{"items":{}}"#, "items"),
        (#"{"items":[{"id":"a"}"#, ""),
    ])
    func decode_reportsTheCodingPath(_ body: String, path: String) async {
        let client = FakeHTTPClient(status: 200, body: Data(body.utf8))
        do {
            _ = try await client.decode(Feed.self, from: endpoint)
            Issue.record("decoded \(body)")
        } catch {
            guard case .decoding(let found, let description) = error else {
                Issue.record("expected a decoding error, got \(error)")
                return
            }
            #expect(found == path)
            #expect(!description.isEmpty)
        }
    }

    @Test func send_passesTransportErrorsThrough() async {
        let client = FakeHTTPClient(failing: .offline)
        await #expect(throws: APIError.offline) { try await client.data(for: endpoint) }
    }

    /// An unset fake fails the test (so a failure-path test cannot pass on its error) and then throws.
    @Test func fake_failsTheTestWithoutAHandler() async {
        let client = FakeHTTPClient()
        await withKnownIssue {
            do throws(APIError) {
                _ = try await client.data(for: endpoint)
                Issue.record("an unset fake answered")
            } catch {
                #expect(error.description.contains("FakeHTTPClient has no handler for GET http://127.0.0.1:1/feed"))
            }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.hasPrefix("FakeHTTPClient has no handler for GET") }
                && issue.sourceLocation?.fileName == "HTTPClientDecodingTests.swift"
        }
    }

    @Test func resultQueue_runningDry_failsTheTestAndThrows() throws {
        let queue = ResultQueue<Int>("FakeThing", [.success(1), .failure(.offline)])
        #expect(try queue.next(for: "value()") == 1)
        #expect(throws: APIError.offline) { try queue.next(for: "value()") }
        #expect(queue.remaining == 0)
        withKnownIssue {
            #expect(throws: APIError.self) { try queue.next(for: "value()") }
        } matching: { issue in
            issue.comments.contains {
                $0.rawValue == "FakeThing.value() was called with no result queued: queue one in the test"
            }
        }
    }

    @Test func gate_holdsCallersUntilOpened_andLetsLaterOnesThrough() async throws {
        let gate = Gate()
        let passed = Task { await gate.pass() }
        try await gate.waitUntilEntered()
        #expect(gate.enteredCount == 1)
        gate.open()
        await passed.value
        await gate.pass()
        #expect(gate.enteredCount == 2)
    }

    @Test func gate_letsACancelledCallerGo() async throws {
        let gate = Gate()
        let waiting = Task { await gate.pass() }
        try await gate.waitUntilEntered()
        waiting.cancel()
        await waiting.value
    }

    @Test func waitUntil_givesUpAfterItsLimit() async {
        await #expect(throws: WaitTimedOut.self) {
            // A window: the limit itself is what this test is about.
            try await waitUntil("never", within: .milliseconds(20)) { false }
        }
    }
}

import Foundation
import Networking
import NetworkingTestSupport
import StubServer
import TestTurns
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The real client against the stub server over loopback.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct URLSessionHTTPClientTests {
    private static func fixtures() throws -> (URL, () -> Void) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("net-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("api"), withIntermediateDirectories: true)
        let stubs = #"""
            {"stubs": [{"name": "echo", "request": {"method": "GET", "path": "/echo"},
              "variants": {"good": {"headers": {"Content-Type": "application/json", "X-Extra": "1"}, "body": "{\"q\":\"{{query.q}}\"}", "template": true},
                           "bad": {"body": "{"}, "nil": {"body": ""}, "server-error": {"status": 503, "body": "down"},
                           "drop": {"fault": "drop"}, "reset": {"fault": "reset"}, "hang": {"fault": "hang"}, "slow": {"like": "good", "delayMs": 2000}}},
             {"name": "post", "request": {"method": "POST", "path": "/post"},
              "variants": {"good": {"status": 201, "body": "made"}, "bad": {"body": ""}, "nil": {"body": ""}}}]}
            """#
        try Data(stubs.utf8).write(to: root.appendingPathComponent("api/stubs.json"))
        return (root, { try? FileManager.default.removeItem(at: root) })
    }

    private func withEcho(_ body: (StubServer, URLSessionHTTPClient) async throws -> Void) async throws {
        let (root, cleanup) = try Self.fixtures()
        defer { cleanup() }
        // A request that sets no timeout of its own gives up after 5 s, not URLSession's default 60 s.
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 5
        configuration.timeoutIntervalForResource = 10
        try await withStubServer(fixtures: root) { server in
            try await body(server, URLSessionHTTPClient(session: URLSession(configuration: configuration)))
        }
    }

    @Test func send_returnsStatusHeadersAndBody() async throws {
        try await withEcho { server, client in
            let endpoint = Endpoint(baseURL: server.baseURL, path: "/echo", query: [.init(name: "q", value: "a+b & ü")])
            let response = try await client.send(try endpoint.request())
            #expect(response.status == 200)
            #expect(response.header("x-extra") == "1")
            #expect(String(decoding: response.body, as: UTF8.self) == #"{"q":"a+b & ü"}"#)
            #expect(server.journal().first?.target == "/echo?q=a%2Bb%20%26%20%C3%BC")
        }
    }

    @Test func send_postsABody() async throws {
        try await withEcho { server, client in
            let url = server.baseURL.appendingPathComponent("post")
            let response = try await client.send(HTTPRequest(url: url, method: "POST", body: Data("hi".utf8)))
            #expect(response.status == 201)
            #expect(server.journal().first?.body == Data("hi".utf8))
        }
    }

    @Test(arguments: [("server-error", 503), ("nil", 200)])
    func send_returnsNon2xxAndEmptyAnswersAsResponses(_ variant: String, status: Int) async throws {
        try await withEcho { server, client in
            try server.setVariant(variant, forStub: "echo")
            let response = try await client.send(HTTPRequest(url: server.baseURL.appendingPathComponent("echo")))
            #expect(response.status == status)
        }
    }

    @Test(arguments: ["drop", "reset"])
    func send_throwsTransportForABrokenConnection(_ variant: String) async throws {
        try await withEcho { server, client in
            try server.setVariant(variant, forStub: "echo")
            do {
                _ = try await client.send(HTTPRequest(url: server.baseURL.appendingPathComponent("echo")))
                Issue.record("answered despite \(variant)")
            } catch {
                guard case .transport? = error as? APIError else {
                    Issue.record("expected transport, got \(error)")
                    return
                }
            }
        }
    }

    @Test func send_throwsTimeoutWhenTheServerHangs() async throws {
        try await withEcho { server, client in
            try server.setVariant("hang", forStub: "echo")
            await #expect(throws: APIError.timeout) {
                try await client.send(HTTPRequest(url: server.baseURL.appendingPathComponent("echo"), timeout: 3))
            }
            #expect(server.requestCount() == 1, "the request reached the server and timed out waiting")
        }
    }

    @Test func send_throwsCancelledWhenTheTaskIsCancelled() async throws {
        try await withEcho { server, client in
            try server.setVariant("slow", forStub: "echo")
            let task = Task {
                try await client.send(HTTPRequest(url: server.baseURL.appendingPathComponent("echo")))
            }
            task.cancel()
            await #expect(throws: APIError.cancelled) { try await task.value }
        }
    }

    @Test func send_throwsTransportWhenNothingListens() async throws {
        let refusing = try RefusingPort()
        let url = refusing.baseURL.appendingPathComponent("echo")
        do {
            _ = try await URLSessionHTTPClient().send(HTTPRequest(url: url, timeout: 2))
            Issue.record("answered with no server")
        } catch {
            guard case .transport = error else {
                Issue.record("expected transport, got \(error)")
                return
            }
        }
    }
}

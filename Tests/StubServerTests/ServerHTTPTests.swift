import Foundation
import StubTestSupport
import TestTurns
import Testing

@testable import StubCore
@testable import StubServer

/// The HTTP/1.1 engine over real loopback sockets.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct ServerHTTPTests {
    @Test func answer_carriesDateLengthTypeAndStubHeaders() async throws {
        try await withTestServer { server, _ in
            let response = try await exchange(server, get("/search?term=jack+johnson&limit=5"))
            #expect(response.statusLine == "HTTP/1.1 200 OK")
            #expect(response.header("Date")?.hasSuffix(" GMT") == true)
            #expect(response.header("Content-Length") == String(response.body.count))
            #expect(response.header("Content-Type") == "application/json")
            #expect(response.header("X-Stub-Name") == "search")
            #expect(response.header("X-Stub-Variant") == "good")
            #expect(response.header("Connection") == nil)
        }
    }

    @Test func keepAlive_servesManyRequestsOnOneConnection() async throws {
        try await withTestServer { server, _ in
            let client = try await RawHTTPClient(port: server.port)
            for index in 0..<5 {
                try await client.send(get("/albums/\(index)"))
                let response = try await client.readResponse()
                #expect(response.text == "{\"id\":\"\(index)\"}")
            }
            try await client.send(get("/albums/last", "Connection: close\r\n"))
            let last = try await client.readResponse()
            #expect(last.header("Connection") == "close")
            #expect(await client.readToEnd().isEmpty, "the server closes after Connection: close")
        }
    }

    @Test func http10_closesUnlessAskedToKeepAlive() async throws {
        try await withTestServer { server, _ in
            let client = try await RawHTTPClient(port: server.port)
            try await client.send("GET /albums/1 HTTP/1.0\r\n\r\n")
            #expect(try await client.readResponse().status == 200)
            #expect(await client.readToEnd().isEmpty)
        }
    }

    @Test func pipelinedRequests_areAnsweredInOrder() async throws {
        try await withTestServer { server, _ in
            let client = try await RawHTTPClient(port: server.port)
            // The first is delayed, so later answers are ready first and must still wait their turn.
            try await client.send(
                get("/search?term=jack+johnson&limit=1", "X-Stub-Variant: slow\r\n") + get("/albums/2")
                    + get("/albums/new")
                    + get("/nowhere"))
            let answers = try await client.readResponses(4)
            #expect(answers.map { $0.header("X-Stub-Name") } == ["search", "album", "album-new", nil])
            #expect(answers.map(\.status) == [200, 200, 200, 404])
        }
    }

    @Test func aRawExchange_readsAsOnTheWire() async throws {
        try await withTestServer { server, _ in
            let request = """
                POST /upload HTTP/1.1\r
                Host: 127.0.0.1\r
                Content-Type: application/json\r
                Transfer-Encoding: chunked\r
                \r
                7\r
                {"a":1}\r
                0\r
                \r
                GET /albums/9 HTTP/1.1\r
                Host: 127.0.0.1\r
                Connection: close\r
                \r

                """
            let client = try await RawHTTPClient(port: server.port)
            try await client.send(request)
            let created = try await client.readResponse()
            let album = try await client.readResponse()
            #expect(created.statusLine == "HTTP/1.1 201 Created")
            #expect(created.text == "created")
            #expect(album.text == #"{"id":"9"}"#)
            #expect(album.header("Connection") == "close")
            #expect(await client.readToEnd().isEmpty)
        }
    }

    @Test func bodies_arriveByContentLengthAndChunked() async throws {
        try await withTestServer { server, _ in
            let client = try await RawHTTPClient(port: server.port)
            try await client.send(
                "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n{\"a\":1}"
            )
            #expect(try await client.readResponse().status == 201)
            try await client.send(
                "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "4\r\n{\"b\"\r\n3\r\n:2}\r\n0\r\n\r\n")
            #expect(try await client.readResponse().status == 201)
            let bodies = server.journal(JournalQuery(stub: "upload")).map { String(decoding: $0.body, as: UTF8.self) }
            #expect(bodies == ["{\"a\":1}", "{\"b\":2}"])
        }
    }

    @Test func journal_keepsTheStartOfALargeBodyAndItsSize() async throws {
        try await withTestServer { server, _ in
            let body = String(repeating: "x", count: 100_000)
            let response = try await exchange(
                server,
                "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
            )
            #expect(response.status == 201)
            let entry = try #require(server.journal(JournalQuery(stub: "upload")).first)
            #expect(entry.bodySize == 100_000)
            #expect(entry.body.count == 65_536)
        }
    }

    @Test func expectContinue_getsAnInterimAnswerBeforeTheBody() async throws {
        // The request must be whole within the header timeout of its first byte: the server allows a minute, and
        // the client answers the 100 as a prompt one would (pinned to one core, a queued task once took over 10 s).
        try await withTestServer(StubServer.Configuration(headerTimeout: .seconds(60))) { server, _ in
            let (interim, final) = try await promptly { [port = server.port] in
                let client = try await RawHTTPClient(port: port)
                try await client.send(
                    "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n"
                )
                let interim = try await client.readResponse().statusLine
                try await client.send("{}")
                return (interim, try await client.readResponse().status)
            }
            #expect(interim == "HTTP/1.1 100 Continue")
            #expect(final == 201)
        }
    }

    @Test func head_answersHeadersWithoutABody() async throws {
        try await withTestServer { server, _ in
            let client = try await RawHTTPClient(port: server.port)
            try await client.send("HEAD /albums/7 HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try await client.readResponse(head: true)
            #expect(response.header("Content-Length") == "10")
            try await client.send(get("/albums/8"))
            #expect(
                try await client.readResponse().text == "{\"id\":\"8\"}", "no stray body bytes precede the next answer")
        }
    }

    @Test(arguments: [
        ("GARBAGE\r\n\r\n", 400, "malformed request line"),
        ("GET / HTTP/1.1\r\n\r\n", 400, "missing Host header"),
        ("GET / HTTP/3.0\r\nHost: x\r\n\r\n", 505, "HTTP/3.0 is not supported"),
        ("GET /%zz HTTP/1.1\r\nHost: x\r\n\r\n", 400, "invalid percent-encoding"),
        ("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000\r\n\r\n", 413, "exceeds the limit"),
        (
            "GET / HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 20_000))\r\n\r\n", 431,
            "exceed 16384 bytes"
        ),
        ("GET / HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 20_000))", 431, "exceed 16384 bytes"),
    ])
    func hostileRequests_getTheirErrorAndTheServerKeepsServing(_ request: String, status: Int, message: String)
        async throws
    {
        try await withTestServer { server, _ in
            let client = try await RawHTTPClient(port: server.port)
            try await client.send(request)
            let response = try await client.readResponse()
            #expect(response.status == status)
            #expect(response.header("Connection") == "close")
            #expect(try response.json()["error"] as? String ?? "" != "")
            #expect((try response.json()["error"] as? String)?.contains(message) == true, "\(response.text)")
            #expect(await client.readToEnd().isEmpty)
            #expect(try await exchange(server, get("/albums/1")).status == 200)
        }
    }

    @Test func idleConnections_areClosed() async throws {
        try await withTestServer(StubServer.Configuration(idleTimeout: .milliseconds(1000))) { server, _ in
            let port = server.port
            let client = try await RawHTTPClient(port: port)
            try await client.send(get("/albums/1"))
            let (status, rest) = (try await client.readResponse().status, await client.readToEnd())
            #expect(status == 200)
            #expect(rest.isEmpty, "closed without a word after the idle timeout")
        }
    }

    /// A stub answering 1 MB, the connection's output limit.
    static func bigCatalog() throws -> StubCatalog {
        let big = StubVariant(body: [UInt8](repeating: 0x61, count: 1 << 20))
        return try StubCatalog(stubs: [
            Stub(
                name: "big", request: RequestPattern(path: PathPattern("/big")),
                variants: ["good": big, "bad": big, "nil": StubVariant()])
        ])
    }

    /// Pipelined requests behind an answer that fills the output must go on once the socket took it, even when
    /// it took it all at once (no writable event follows).
    @Test func pipelinedRequests_behindAFullOutput_areAllAnswered() async throws {
        try await withStubServer(catalog: Self.bigCatalog()) { server in
            let port = server.port
            let client = try await RawHTTPClient(port: port)
            try await client.send(String(repeating: get("/big"), count: 3))
            let sizes = try await client.readResponses(3).map(\.body.count)
            #expect(sizes == [1 << 20, 1 << 20, 1 << 20])
        }
    }

    @Test func aClientThatNeverReads_isClosedAfterTheIdleTimeoutAndCounted() async throws {
        let configuration = StubServer.Configuration(idleTimeout: .milliseconds(300))
        try await withStubServer(catalog: Self.bigCatalog(), configuration: configuration) { server in
            let client = try await RawHTTPClient(port: server.port)
            // 64 answers of 1 MB: far more than the socket buffers hold, so output stays pending.
            try await client.send(String(repeating: get("/big"), count: 64))
            try await waitUntil(
                "the stalled connection to be closed (\(server.stalledConnections) stalled, \(server.openConnections) open)"
            ) {
                server.stalledConnections == 1 && server.openConnections == 0
            }
            #expect(server.requestCount() < 64, "the server stopped taking requests once its output was full")
        }
    }

    @Test func slowHeaders_get408AndAreClosed() async throws {
        try await withTestServer(StubServer.Configuration(headerTimeout: .milliseconds(100))) { server, _ in
            let port = server.port
            let client = try await RawHTTPClient(port: port)
            try await client.send("GET /albums/1 HTTP/1.1\r\nHost: x\r\n")
            let (response, rest) = (try await client.readResponse(), await client.readToEnd())
            #expect(response.status == 408)
            #expect(rest.isEmpty)
        }
    }

    @Test func connectionsBeyondTheLimit_get503() async throws {
        try await withTestServer(StubServer.Configuration(idleTimeout: testServerTimeout, maxConnections: 1)) {
            server, _ in
            let first = try await RawHTTPClient(port: server.port)
            try await first.send(get("/albums/1"))
            #expect(try await first.readResponse().status == 200)
            let second = try await RawHTTPClient(port: server.port)
            let refused = try await second.readResponse()
            #expect(refused.status == 503)
            #expect(refused.text.contains("too many open connections"))
        }
    }

    @Test func stop_closesOpenConnectionsAndReturns() async throws {
        let fixtures = try TestCatalog.fixtures()
        defer { fixtures.remove() }
        let server = try StubServer.start(fixtures: fixtures.root)
        let idle = try await RawHTTPClient(port: server.port)
        try await idle.send(get("/albums/1"))
        #expect(try await idle.readResponse().status == 200)
        let hanging = try await RawHTTPClient(port: server.port)
        try await hanging.send(get("/search?term=jack+johnson&limit=1", "X-Stub-Variant: hang\r\n"))
        await server.stop()
        #expect(await idle.readToEnd().isEmpty)
        #expect(await hanging.readToEnd().isEmpty)
        #expect(server.hasStopped, "the listener is closed")
        #expect(server.openConnections == 0)
        await server.stop()
    }

    @Test func manyServers_runSideBySideWithoutSharedState() async throws {
        let fixtures = try TestCatalog.fixtures()
        defer { fixtures.remove() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                group.addTask {
                    try await withStubServer(fixtures: fixtures.root) { server in
                        try server.setVariant(index.isMultiple(of: 2) ? "special" : nil, forStub: "album")
                        let response = try await exchange(server, get("/albums/\(index)"))
                        #expect(response.header("X-Stub-Variant") == (index.isMultiple(of: 2) ? "special" : "good"))
                        #expect(server.requestCount() == 1)
                    }
                }
            }
            try await group.waitForAll()
        }
    }
}

/// Large fixed bodies go out from memory files (`FileBody`, Linux): same bytes as from memory, every time.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct LargeBodyTests {
    static let stubs = """
        {"stubs": [
          {"name": "big", "request": {"path": "/big"},
           "variants": {"good": {"bodyFile": "big.txt"}, "bad": {"body": "{"}, "nil": {"body": ""}}},
          {"name": "templated", "request": {"path": "/t"},
           "variants": {"good": {"bodyFile": "templated.txt", "template": true}, "bad": {"body": "{"},
                        "nil": {"body": ""}}}
        ]}
        """

    @Test func largeFixedBodies_areSentWhole_andAReloadSendsTheNewOnes() async throws {
        let first = String(repeating: "0123456789abcdef", count: 4_096)
        let second = String(repeating: "fedcba9876543210", count: 5_000)
        #expect(first.utf8.count >= BodyFiles.minimum)
        let fixtures = try TemporaryFixtures([
            "api/stubs.json": Self.stubs, "api/big.txt": first, "api/templated.txt": first + "{{query.q}}",
        ])
        defer { fixtures.remove() }
        try await withStubServer(fixtures: fixtures.root) { server in
            for _ in 0..<3 {
                #expect(try await exchange(server, get("/big")).text == first)
            }
            let client = try await RawHTTPClient(port: server.port)
            try await client.send("HEAD /big HTTP/1.1\r\nHost: t\r\n\r\n" + get("/big"))
            let head = (try await client.readResponse(head: true), try await client.readResponse())
            #expect(head.0.header("Content-Length") == "\(first.utf8.count)")
            #expect(head.0.body.isEmpty)
            #expect(head.1.text == first, "the answer after a HEAD starts where the HEAD ended")
            #expect(try await exchange(server, get("/t?q=rendered")).text == first + "rendered")
            #expect(try await exchange(server, get("/t?q=again")).text == first + "again", "templates never cached")

            try fixtures.write("api/big.txt", second)
            try server.reload()
            #expect(try await exchange(server, get("/big")).text == second)
        }
    }
}

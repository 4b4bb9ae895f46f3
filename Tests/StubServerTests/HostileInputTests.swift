import Foundation
import StubTestSupport
import TestTurns
import Testing

@testable import StubCore
@testable import StubServer

/// Hostile and conformance requests over real sockets: each gets its answer, and the server keeps serving.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct HostileInputTests {
    /// A small deterministic generator, so that a failure can be replayed.
    struct Generator: RandomNumberGenerator {
        var state: UInt64

        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state
        }
    }

    /// A negative chunk size crashed the whole process through a slice with a negative length.
    @Test func negativeChunkSize_is400AndTheServerKeepsServing() async throws {
        try await withTestServer { server, _ in
            let client = try await RawHTTPClient(port: server.port)
            try await client.send(
                "POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n-5\r\nhello\r\n0\r\n\r\n")
            let response = try await client.readResponse()
            #expect(response.status == 400)
            #expect((try response.json()["error"] as? String)?.contains("malformed chunk size") == true)
            #expect(await client.readToEnd().isEmpty)
            #expect(try await exchange(server, get("/albums/1")).status == 200)
        }
    }

    @Test(arguments: [
        ("POST /upload HTTP/1.1\r\nHost: a\r\nContent-Type: json\r\nTransfer-Encoding: chunked\r\n\r\n1 0\r\n", 400),
        ("POST /upload HTTP/1.1\r\nHost: a\r\nContent-Type: json\r\nTransfer-Encoding: chunked\r\n\r\n+a\r\n", 400),
        ("GET /albums/1 HTTP/1.1\r\nHost: a\r\nDummy: x\nContent-Length: 23\r\n\r\n", 400),
        ("CONNECT a:443 HTTP/1.1\r\nHost: a:443\r\n\r\n", 501),
        ("GET /albums/\u{7F} HTTP/1.1\r\nHost: a\r\n\r\n", 400),
    ])
    func nonConformingRequests_getTheirStatus(_ request: String, status: Int) async throws {
        try await withTestServer { server, _ in
            let response = try await exchange(server, request)
            #expect(response.status == status, "\(response.text)")
            #expect(try await exchange(server, get("/albums/1")).status == 200)
        }
    }

    @Test func anEmptyLineAfterABody_isIgnored() async throws {
        try await withTestServer { server, _ in
            let client = try await RawHTTPClient(port: server.port)
            try await client.send(
                "POST /upload HTTP/1.1\r\nHost: a\r\nContent-Type: json\r\nContent-Length: 2\r\n\r\n{}\r\n"
                    + get("/albums/2"))
            #expect(try await client.readResponse().status == 201)
            #expect(try await client.readResponse().text == #"{"id":"2"}"#)
        }
    }

    /// Found by the request-decoder fuzzer: a combining mark after a slash must not hide an admin path.
    @Test func aCombiningMarkAfterTheAdminPrefix_isStillAnAdminRequest() async throws {
        try await withTestServer { server, _ in
            let response = try await exchange(server, get("/__stub/%CC%A8"))
            #expect(response.status == 404)
            #expect(response.text.contains("is not an admin endpoint"))
            #expect(server.journal().isEmpty, "admin requests are not journaled")
            #expect(try await exchange(server, get("/albums/%CC%A8")).text == "{\"id\":\"\u{328}\"}")
        }
    }

    @Test func randomBytes_onTheWire_leaveTheServerServing() async throws {
        try await withTestServer(StubServer.Configuration(headerTimeout: .milliseconds(100))) { server, _ in
            let port = server.port
            // Each round may wait for the header timeout: a 2 s window per read, ten times the server's.
            var generator = Generator(state: 7)
            for round in 0..<20 {
                let client = try await RawHTTPClient(port: port, timeout: 2)
                let garbage = (0..<Int.random(in: 1...600, using: &generator)).map { _ in
                    UInt8.random(in: 0...255, using: &generator)
                }
                try await client.send(round.isMultiple(of: 2) ? garbage : garbage + Array("\r\n\r\n".utf8))
                _ = await client.readToEnd()
            }
            #expect(try await exchange(server, get("/albums/1")).text == #"{"id":"1"}"#)
        }
    }
}

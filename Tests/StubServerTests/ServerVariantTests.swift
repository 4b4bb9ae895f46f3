import Foundation
import StubTestSupport
import TestTurns
import Testing

@testable import StubCore
@testable import StubServer

/// Variants, faults, templates and misses, as a client sees them over HTTP.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct ServerVariantTests {
    private let search = "/search?term=jack+johnson&limit=5"

    @Test(arguments: [
        ("good", 200, #"{"term":"jack johnson","next":"http://127.0.0.1/search"}"#),
        ("bad", 200, #"{"results": ["#),
        ("nil", 200, ""),
        ("server-error", 503, "down"),
    ])
    func header_choosesTheVariant(_ variant: String, status: Int, body: String) async throws {
        try await withTestServer { server, _ in
            let response = try await exchange(server, get(search, "X-Stub-Variant: \(variant)\r\n"))
            #expect(response.status == status)
            #expect(response.text == body)
            #expect(response.header("X-Stub-Variant") == variant)
            #expect(response.header("X-Stub-Variant-Source") == "header")
        }
    }

    @Test func template_fillsBaseURLQueryAndPathFromTheRequest() async throws {
        try await withTestServer { server, _ in
            let client = try await RawHTTPClient(port: server.port)
            try await client.send(
                "GET /search?term=jack%20johnson&limit=1 HTTP/1.1\r\nHost: localhost:\(server.port)\r\n\r\n")
            let searchAnswer = try await client.readResponse()
            #expect(
                searchAnswer.text == "{\"term\":\"jack johnson\",\"next\":\"http://localhost:\(server.port)/search\"}")
            try await client.send(get("/albums/%C3%A9t%C3%A9%20%F0%9F%8E%B8"))
            #expect(try await client.readResponse().text == #"{"id":"été 🎸"}"#)
        }
    }

    @Test func perStubChoice_beatsSequenceAndServerChoice() async throws {
        try await withTestServer { server, _ in
            try server.setVariant("bad")
            try server.setVariant("nil", forStub: "flaky")
            #expect(try await exchange(server, get("/flaky")).header("X-Stub-Variant") == "nil")
            #expect(try await exchange(server, get("/albums/1")).header("X-Stub-Variant") == "bad")
            try server.setVariant(nil, forStub: "flaky")
            var statuses: [Int] = []
            for _ in 0..<4 { statuses.append(try await exchange(server, get("/flaky")).status) }
            #expect(statuses == [500, 500, 200, 200])
        }
    }

    @Test func serverWideVariantTheStubLacks_answersGoodAndSaysSo() async throws {
        try await withTestServer { server, _ in
            try server.setVariant("special")
            let album = try await exchange(server, get("/albums/1"))
            #expect(album.text == "special")
            let other = try await exchange(server, get("/albums/new"))
            #expect(other.text == "new")
            #expect(other.header("X-Stub-Variant") == "good")
            #expect(other.header("X-Stub-Variant-Fallback")?.contains("special is not defined") == true)
        }
    }

    @Test func unknownVariants_areErrorsNotSilentFallbacks() async throws {
        try await withTestServer { server, _ in
            let response = try await exchange(server, get("/albums/1", "X-Stub-Variant: slow\r\n"))
            #expect(response.status == 400)
            #expect(
                try response.json()["error"] as? String
                    == #"stub "album" has no variant "slow" (asked for by the X-Stub-Variant header); variants: good, bad, nil, special"#
            )
            #expect(
                throws: StubServerError.unknownVariant(
                    "slow", stub: "album", available: ["good", "bad", "nil", "special"])
            ) {
                try server.setVariant("slow", forStub: "album")
            }
            #expect(throws: StubServerError.self) { try server.setVariant("x", forStub: "nope") }
            #expect(throws: StubServerError.variantNowhere("sloww")) { try server.setVariant("sloww") }
        }
    }

    @Test func unmatched_gets404NamingTheClosestStubsFieldByField() async throws {
        try await withTestServer { server, _ in
            let response = try await exchange(server, get("/search?term=jack&limit=ten"))
            #expect(response.status == 404)
            let body = try response.json()
            #expect(body["error"] as? String == "no stub matches GET /search?term=jack&limit=ten")
            let closest = try #require(body["closest"] as? [[String: Any]])
            #expect(closest.first?["stub"] as? String == "search-any")
            let search = try #require(closest.first { $0["stub"] as? String == "search" })
            let mismatches = try #require(search["mismatches"] as? [[String: String]])
            #expect(
                mismatches == [
                    ["field": "query.limit", "expected": "matches /^[0-9]+$/", "actual": "ten"],
                    ["field": "query.term", "expected": "\"jack johnson\"", "actual": "jack"],
                ])
            #expect(server.unmatchedRequests().map(\.target) == ["/search?term=jack&limit=ten"])
        }
    }

    @Test func wrongMethod_gets405WithAllow() async throws {
        try await withTestServer { server, _ in
            let response = try await exchange(server, "DELETE /albums/1 HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(response.status == 405)
            #expect(response.header("Allow") == "GET, HEAD")
        }
    }

    @Test func delay_holdsTheAnswerBack() async throws {
        try await withTestServer { server, _ in
            let clock = ContinuousClock()
            let start = clock.now
            let response = try await exchange(server, get(search, "X-Stub-Variant: slow\r\n"))
            #expect(response.status == 200)
            #expect(clock.now - start >= .milliseconds(150))
        }
    }

    @Test func aClientThatResetsDuringADelay_isDroppedAndOthersAreServed() async throws {
        try await withTestServer { server, _ in
            let leaving = try await RawHTTPClient(port: server.port)
            try await leaving.send(get(search, "X-Stub-Variant: slow\r\n"))
            await leaving.reset()
            #expect(try await exchange(server, get("/albums/1")).status == 200)
            let staying = try await RawHTTPClient(port: server.port)
            try await staying.send(get(search, "X-Stub-Variant: slow\r\n"))
            #expect(try await staying.readResponse().status == 200)
        }
    }

    @Test func dropFault_closesWithoutAnAnswer() async throws {
        try await withTestServer { server, _ in
            let client = try await RawHTTPClient(port: server.port)
            try await client.send(get(search, "X-Stub-Variant: drop\r\n"))
            #expect(await client.readToEnd().isEmpty)
            #expect(server.journal(JournalQuery(variant: "drop")).first?.fault == .drop)
        }
    }

    @Test func dropFault_stillDeliversAnswersToEarlierPipelinedRequests() async throws {
        try await withTestServer { server, _ in
            let client = try await RawHTTPClient(port: server.port)
            try await client.send(get("/albums/1") + get(search, "X-Stub-Variant: drop\r\n") + get("/albums/3"))
            #expect(try await client.readResponse().text == #"{"id":"1"}"#)
            #expect(await client.readToEnd().isEmpty)
        }
    }

    @Test func resetFault_abortsTheConnection() async throws {
        try await withTestServer { server, _ in
            let client = try await RawHTTPClient(port: server.port)
            try await client.send(get(search, "X-Stub-Variant: reset\r\n"))
            #expect(await client.readEndsWithReset())
        }
    }

    @Test func truncateFault_sendsLessThanItsContentLength() async throws {
        try await withTestServer { server, _ in
            let client = try await RawHTTPClient(port: server.port)
            try await client.send(get(search, "X-Stub-Variant: truncate\r\n"))
            let bytes = String(decoding: await client.readToEnd(), as: UTF8.self)
            let parts = bytes.components(separatedBy: "\r\n\r\n")
            let length = try #require(
                parts[0].components(separatedBy: "\r\n").first { $0.hasPrefix("Content-Length: ") })
            let declared = try #require(Int(length.dropFirst(16)))
            #expect(parts[1].utf8.count > 0)
            #expect(parts[1].utf8.count < declared)
        }
    }

    @Test func malformedFault_sendsSomethingThatIsNotHTTP() async throws {
        try await withTestServer { server, _ in
            let client = try await RawHTTPClient(port: server.port)
            try await client.send(get(search, "X-Stub-Variant: malformed\r\n"))
            await #expect(throws: RawHTTPClient.ClientError.self) { try await client.readResponse() }
        }
    }

    /// After a broken answer the stream is unusable: the server closes the connection once the bytes are out,
    /// although HTTP/1.1 keeps it alive by default and the client asked for that.
    @Test(arguments: [("malformed", "HTTP/1.1 2x0 NOT-HTTP\r\n"), ("truncate", "HTTP/1.1 200 OK\r\n")])
    func aBrokenAnswer_endsAKeepAliveConnection(_ variant: String, start: String) async throws {
        try await withTestServer { server, _ in
            let (port, request) = (server.port, get(search, "X-Stub-Variant: \(variant)\r\nConnection: keep-alive\r\n"))
            // A window: the server closes at once after the broken answer (its loop has a thread of its own), well
            // within 2 s, where a kept connection would wait for its 30 s idle timeout.
            let client = try await RawHTTPClient(port: port, timeout: 2)
            try await client.send(request)
            let received = try await client.readUntilClosed()  // throws readFailed(EAGAIN) if the server keeps it open
            #expect(String(decoding: received, as: UTF8.self).hasPrefix(start))
        }
    }

    @Test func hangFault_neverAnswersButOthersAreServed() async throws {
        try await withTestServer { server, _ in
            let (port, request) = (server.port, get(search, "X-Stub-Variant: hang\r\n"))
            // A window of a second of waiting for nothing: the task is suspended meanwhile, holding no thread.
            let hanging = try await RawHTTPClient(port: port, timeout: 1)
            try await hanging.send(request)
            let hung = Task { try await hanging.readResponse() }
            #expect(try await exchange(server, get("/albums/1")).status == 200)
            await #expect(throws: RawHTTPClient.ClientError.readFailed(EAGAIN)) { try await hung.value }
        }
    }
}

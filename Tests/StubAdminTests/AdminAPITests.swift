import Foundation
import StubTestSupport
import TestTurns
import Testing

@testable import StubCore
@testable import StubServer

/// The admin API under `/__stub/`, driven over HTTP as a developer's tools would.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct AdminAPITests {
    private func send(_ server: StubServer, _ method: String, _ path: String, body: String = "") async throws
        -> RawResponse
    {
        try await exchange(
            server, "\(method) \(path) HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
    }

    @Test func health_reportsTheCatalog() async throws {
        try await withTestServer { server, fixtures in
            let body = try await send(server, "GET", "/__stub/health").json()
            #expect(body["status"] as? String == "ok")
            #expect(body["stubs"] as? Int == 6)
            #expect(body["fixtures"] as? String == fixtures.root.standardizedFileURL.resolvingSymlinksInPath().path)
        }
    }

    @Test func stubs_listVariantsChoicesAndSequences() async throws {
        try await withTestServer { server, _ in
            _ = try await send(server, "PUT", "/__stub/stubs/album/variant", body: #"{"variant": "special"}"#)
            let body = try await send(server, "GET", "/__stub/stubs").json()
            let stubs = try #require(body["stubs"] as? [[String: Any]])
            let album = try #require(stubs.first { $0["name"] as? String == "album" })
            #expect(album["variants"] as? [String] == ["good", "bad", "nil", "special"])
            #expect(album["choice"] as? String == "special")
            #expect(album["path"] as? String == "/albums/{id}")
            let flaky = try #require(stubs.first { $0["name"] as? String == "flaky" })
            #expect(flaky["sequence"] as? [String] == ["server-error", "server-error", "good"])
        }
    }

    /// Each variant's answers as written and the mutants, since the server started: a reset keeps them, a mutant
    /// ID that does not exist (a 400) counts as nothing, and a variant never served shows 0.
    @Test func stubs_countWhatEachVariantServed() async throws {
        try await withTestServer { server, _ in
            _ = try await exchange(server, get("/albums/1"))
            _ = try await exchange(server, get("/albums/2", "X-Stub-Variant: bad\r\n"))
            _ = try await exchange(server, get("/albums/3", "X-Stub-Variant: bad\r\n"))
            #expect(try await exchange(server, get("/albums/4", "X-Stub-Mutation: body:empty\r\n")).status == 200)
            #expect(try await exchange(server, get("/albums/5", "X-Stub-Mutation: no-such-mutant\r\n")).status == 400)
            _ = try await exchange(server, get("/missing"))
            #expect(try await send(server, "POST", "/__stub/reset").status == 200)
            let stubs = try #require(try await send(server, "GET", "/__stub/stubs").json()["stubs"] as? [[String: Any]])
            let album = try #require(stubs.first { $0["name"] as? String == "album" })
            #expect(album["served"] as? [String: Int] == ["good": 1, "bad": 2, "nil": 0, "special": 0])
            #expect(album["servedMutants"] as? Int == 1)
            let search = try #require(stubs.first { $0["name"] as? String == "search" })
            #expect((search["served"] as? [String: Int])?.values.allSatisfy { $0 == 0 } == true)
        }
    }

    @Test(arguments: [
        ("PUT", "/__stub/variant", #"{"variant": "bad"}"#),
        ("PUT", "/__stub/variant?variant=bad", ""),
        ("POST", "/__stub/variant", "bad"),
    ])
    func variant_setsAndClearsTheServerWideChoice(_ method: String, _ path: String, body: String) async throws {
        try await withTestServer { server, _ in
            let response = try await send(server, method, path, body: body)
            #expect(response.status == 200)
            #expect(server.serverVariant == "bad")
            #expect(try await exchange(server, get("/albums/1")).text == "{")
            #expect(try await send(server, "DELETE", "/__stub/variant").status == 200)
            #expect(server.serverVariant == nil)
            #expect(try await exchange(server, get("/albums/1")).text == #"{"id":"1"}"#)
        }
    }

    @Test func stubVariant_rejectsUnknownStubsAndVariants() async throws {
        try await withTestServer { server, _ in
            let unknownStub = try await send(server, "PUT", "/__stub/stubs/nope/variant", body: "bad")
            #expect(unknownStub.status == 404)
            #expect(
                (try unknownStub.json()["error"] as? String)?.hasPrefix(#"no stub named "nope"; stubs: search, "#)
                    == true)
            let unknownVariant = try await send(server, "PUT", "/__stub/stubs/album/variant", body: "slow")
            #expect(unknownVariant.status == 400)
            let nowhere = try await send(server, "PUT", "/__stub/variant", body: "nothing-has-this")
            #expect(try nowhere.json()["error"] as? String == #"no stub has a variant "nothing-has-this""#)
            #expect(try await send(server, "PUT", "/__stub/variant", body: "").status == 400)
        }
    }

    @Test func journal_isQueryableCountableAndClearable() async throws {
        try await withTestServer { server, _ in
            _ = try await exchange(server, get("/albums/1", "X-Trace: one\r\n"))
            _ = try await exchange(server, get("/albums/2", "X-Stub-Variant: bad\r\n"))
            _ = try await exchange(server, get("/missing"))
            let page = try await send(server, "GET", "/__stub/journal?stub=album&variant=bad").json()
            #expect(page["count"] as? Int == 1)
            let entry = try #require((page["entries"] as? [[String: Any]])?.first)
            #expect(entry["path"] as? String == "/albums/2")
            #expect(entry["status"] as? Int == 200)
            #expect(entry["time"] is String)
            #expect(server.journal(JournalQuery(stub: "album")).first?.header("x-trace") == "one")
            #expect(try await send(server, "GET", "/__stub/journal/count?path=/albums/1").json()["count"] as? Int == 1)
            #expect(try await send(server, "GET", "/__stub/journal/count").json()["count"] as? Int == 3)
            let unmatched = try await send(server, "GET", "/__stub/unmatched").json()
            #expect((unmatched["entries"] as? [[String: Any]])?.first?["path"] as? String == "/missing")
            #expect(try await send(server, "DELETE", "/__stub/journal").status == 200)
            #expect(server.requestCount() == 0)
        }
    }

    @Test func reset_forgetsChoicesSequencesAndTheJournal() async throws {
        try await withTestServer(StubServer.Configuration(variant: "nil", idleTimeout: testServerTimeout)) {
            server, _ in
            try server.setVariant("bad")
            try server.setVariant("special", forStub: "album")
            _ = try await exchange(server, get("/flaky"))
            #expect(try await send(server, "POST", "/__stub/reset").status == 200)
            #expect(server.serverVariant == "nil", "back to the configured variant")
            #expect(server.variant(forStub: "album") == nil)
            #expect(server.requestCount() == 0)
            #expect(try await exchange(server, get("/flaky")).status == 500, "the sequence starts over")
        }
    }

    @Test func reload_readsTheFolderAgainAndKeepsServingOnFailure() async throws {
        try await withTestServer { server, fixtures in
            try fixtures.write(
                "extra/stubs.json",
                #"{"stubs": [{"name": "extra", "request": {"path": "/extra"}, "variants": {"good": {"body": "hi"}, "bad": {"body": "{"}, "nil": {"body": ""}}}]}"#
            )
            let reloaded = try await send(server, "POST", "/__stub/reload")
            #expect(reloaded.status == 200)
            #expect(try reloaded.json()["stubs"] as? Int == 7)
            #expect(try await exchange(server, get("/extra")).text == "hi")
            try fixtures.write(
                "extra/stubs.json",
                #"{"stubs": [{"name": "extra", "request": {"path": "/extra"}, "variants": {"good": {"bodyFile": "gone.json"}}}]}"#
            )
            let failed = try await send(server, "POST", "/__stub/reload")
            #expect(failed.status == 422)
            let problems = try #require(try failed.json()["problems"] as? [[String: String]])
            #expect(
                problems.contains {
                    $0["keyPath"] == "stubs[0].variants.good.bodyFile" && $0["message"] == "no such file gone.json"
                })
            #expect(try await exchange(server, get("/extra")).text == "hi", "the previous catalog still answers")
        }
    }

    @Test func unknownAdminPaths_listTheEndpoints() async throws {
        try await withTestServer { server, _ in
            let response = try await send(server, "GET", "/__stub/nope")
            #expect(response.status == 404)
            #expect((try response.json()["endpoints"] as? [String])?.contains("GET /__stub/health") == true)
            #expect(try await send(server, "DELETE", "/__stub/health").status == 405)
        }
    }
}

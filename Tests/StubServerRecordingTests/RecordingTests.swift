import Foundation
import Locking
import StubCore
import StubServer
import StubServerRecording
import StubTestSupport
import TestTurns
import Testing

/// Recording and proxying on loopback, with a second stub server standing in for the real API.
@Suite(.takesTurns(.heavy), .timeLimit(.minutes(1)))
struct RecordingTests {
    static let searchBody = Array(#"{"resultCount":1,"results":[{"trackName":"Banana Pancakes","trackId":1}]}"#.utf8)

    /// The "real API": a search answer with a cookie, a counter that answers differently on its second call, and
    /// a slow answer.
    static func upstreamCatalog() throws -> StubCatalog {
        let json = [HeaderField(name: "Content-Type", value: "application/json; charset=utf-8")]
        func variants(_ good: StubVariant, _ more: [String: StubVariant] = [:]) -> [String: StubVariant] {
            ["good": good, "bad": StubVariant(body: Array("{".utf8)), "nil": StubVariant()].merging(more) { $1 }
        }
        return try StubCatalog(stubs: [
            Stub(
                name: "search", request: RequestPattern(path: PathPattern("/search")),
                variants: variants(
                    StubVariant(
                        headers: json + [HeaderField(name: "Set-Cookie", value: "session=s3cret-cookie")],
                        body: searchBody))),
            Stub(
                name: "counter", request: RequestPattern(path: PathPattern("/counter")),
                variants: variants(
                    StubVariant(headers: json, body: Array(#"{"n":1}"#.utf8)),
                    ["second": StubVariant(headers: json, body: Array(#"{"n":2}"#.utf8))]),
                sequence: ["good", "second"]),
            Stub(
                name: "slow", request: RequestPattern(path: PathPattern("/slow")),
                variants: variants(StubVariant(body: Array("late".utf8), delayMs: 60_000))),
        ])
    }

    /// Every file under `folder`, by path relative to it.
    func files(in folder: URL) -> [String: Data] {
        var found: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        while let path = enumerator?.nextObject() as? String {
            if let data = FileManager.default.contents(atPath: folder.appendingPathComponent(path).path) {
                found[path] = data
            }
        }
        return found
    }

    @Test func recordMissing_thenReplayByteForByteWithTheUpstreamStopped() async throws {
        let fixtures = try TemporaryFixtures()
        defer { fixtures.remove() }
        let folder = fixtures.url("recording")
        let upstream = try StubServer.start(catalog: Self.upstreamCatalog())
        let lines = LogLines()
        let recorder = try StubServer.start(
            fixtures: folder, recording: .missing(upstream: upstream.baseURL), environment: [:], log: lines.append)
        let target = "/search?term=jack+johnson&entity=song"
        let first = try await get(target, from: recorder, headers: "Authorization: Bearer s3cret-token\r\n")
        #expect(first.status == 200)
        #expect(first.body == Self.searchBody)
        #expect(first.header("X-Stub-Forwarded") == "recorded")
        let second = try await get(target, from: recorder)
        #expect(second.header("X-Stub-Name") == "get-search", "the new fixture answers the same request")
        #expect(second.body == Self.searchBody)
        #expect(recorder.journal().map { $0.forwarded } == ["recorded", nil])
        #expect(recorder.journal().first?.header("Authorization") == "REDACTED")
        #expect(try await recorder.unmatchedReports().isEmpty, "recorded requests count as matched")
        #expect(lines.all == ["recorded GET \(target) as get-search (good; bad and nil generated)"])
        await recorder.stop()
        await upstream.stop()

        try await withStubServer(fixtures: folder) { replay throws in
            let good = try await get(target, from: replay)
            #expect(good.body == Self.searchBody, "byte for byte")
            #expect(good.header("Content-Type") == "application/json; charset=utf-8")
            #expect(good.header("Set-Cookie") == nil)
            let bad = try await get(target, from: replay, headers: "X-Stub-Variant: bad\r\n")
            #expect(bad.body == Array(Self.searchBody.prefix(Self.searchBody.count / 2)))
            let empty = try await get(target, from: replay, headers: "X-Stub-Variant: nil\r\n")
            #expect(empty.status == 200 && empty.body.isEmpty)
            #expect(
                try await get("/search?term=other&entity=song", from: replay).status == 404, "query matched exactly")
        }
        let written = files(in: folder)
        #expect(
            Set(written.keys) == [
                "127-0-0-1/stubs.json", "127-0-0-1/get-search.good.json", "127-0-0-1/get-search.bad.json",
            ])
        for (path, data) in written {
            #expect(!String(decoding: data, as: UTF8.self).contains("s3cret"), "a secret in \(path)")
        }
        let stubs = String(decoding: written["127-0-0-1/stubs.json"] ?? Data(), as: UTF8.self)
        #expect(stubs.contains(#""generated" : true"#))
    }

    /// Sends `POST target` and reads until the server closes.
    func postReadingToEnd(_ target: String, to server: StubServer) async throws -> String {
        let client = try await RawHTTPClient(port: server.port)
        try await client.send(
            "POST \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}")
        return String(decoding: await client.readToEnd(), as: UTF8.self)
    }

    /// An upstream `text/event-stream` is passed on once it has ended, and recorded as an events file with the
    /// pauses measured between its events, which a replay keeps.
    @Test func aRecordedEventStream_becomesAnEventsFileWithItsPauses_andReplaysAsAStream() async throws {
        let fixtures = try TemporaryFixtures()
        defer { fixtures.remove() }
        let folder = fixtures.url("recording")
        let script: [ServerSentEvent] = [
            .make(data: "a", id: "1"), .make(data: "b", id: "2", delayMs: 300),
            .make(event: "done", data: "[DONE]", delayMs: 300),
        ]
        var good = StubVariant(
            headers: [HeaderField(name: "Content-Type", value: "text/event-stream")], body: script.flatMap(\.wire))
        good.events = EventStream(events: script)
        let upstream = try StubServer.start(
            catalog: StubCatalog(stubs: [
                Stub(
                    name: "chat", request: RequestPattern(method: "POST", path: PathPattern("/chat")),
                    variants: ["good": good, "bad": StubVariant(), "nil": StubVariant()])
            ]))
        let recorder = try StubServer.start(
            fixtures: folder, recording: .missing(upstream: upstream.baseURL), environment: [:])
        let passed = try await postReadingToEnd("/chat", to: recorder)
        await recorder.stop()
        await upstream.stop()
        #expect(passed.hasSuffix("\r\n\r\n" + String(decoding: script.flatMap(\.wire), as: UTF8.self)))
        let file = folder.appendingPathComponent("127-0-0-1/post-chat.good.sse")
        let recorded = try EventStreamFile.parse([UInt8](try Data(contentsOf: file)))
        #expect(recorded.map(\.lines) == script.map(\.lines))
        let pauses = recorded.map(\.delayMs)
        // Pauses are measured between arrivals: a piece reaching the recorder late shortens the next pause (by 23 ms
        // in one CI run). In their sum only the first event's lateness counts, so the sum is checked, against half
        // the 600 ms sent; figures come from a benchmark.
        #expect(pauses[1] + pauses[2] >= 300, "measured pauses, not much shorter than sent: \(pauses)")
        let stubs = String(
            decoding: try Data(contentsOf: folder.appendingPathComponent("127-0-0-1/stubs.json")), as: UTF8.self)
        #expect(stubs.contains(#""eventsFile" : "post-chat.good.sse""#))
        try await withStubServer(fixtures: folder) { replay throws in
            let streamed = try await postReadingToEnd("/chat", to: replay)
            #expect(streamed.contains("Transfer-Encoding: chunked"))
            #expect(streamed.contains("event: done\ndata: [DONE]\n\n"))
            #expect(replay.journal().last?.eventsSent == 3)
        }
    }

    @Test func recording_extendsAnExistingStubsFile_neverClobbersIt() async throws {
        let handWritten =
            #"{"stubs": [{"name": "local", "request": {"path": "/local"}, "variants": {"good": {"body": "mine"}, "bad": {"body": "{"}, "nil": {"body": ""}}}]}"#
        let fixtures = try TemporaryFixtures(["api/stubs.json": handWritten])
        defer { fixtures.remove() }
        let folder = fixtures.root
        let upstream = try StubServer.start(catalog: Self.upstreamCatalog())
        try await withRecordingStubServer(
            fixtures: folder, recording: .missing(upstream: upstream.baseURL), api: "api", environment: [:]
        ) { server throws in
            #expect(try await get("/search?term=a", from: server).header("X-Stub-Forwarded") == "recorded")
            #expect(try await get("/local", from: server).text == "mine")
        }
        await upstream.stop()
        let catalog = try StubCatalog.load(from: folder)
        #expect(catalog.stubs.map(\.name) == ["local", "get-search"])
        #expect(catalog.stubs.map(\.hosts) == [["127.0.0.1"], ["127.0.0.1"]], "the upstream's host, for in process")
    }

    @Test func anUnreadableStubsFile_isLeftUntouched_andTheAnswerStillGoesBack() async throws {
        let fixtures = try TemporaryFixtures()
        defer { fixtures.remove() }
        let folder = fixtures.url("recording")
        let lines = LogLines()
        let upstream = try StubServer.start(catalog: Self.upstreamCatalog())
        let recorder = try StubServer.start(
            fixtures: folder, recording: .missing(upstream: upstream.baseURL), api: "other", environment: [:],
            log: lines.append)
        let broken = folder.appendingPathComponent("other/stubs.json")
        try fixtures.write("recording/other/stubs.json", "[not fixtures]")
        #expect(try await get("/search?term=a", from: recorder).body == Self.searchBody)
        await recorder.stop()
        await upstream.stop()
        #expect(FileManager.default.contents(atPath: broken.path) == Data("[not fixtures]".utf8))
        #expect(lines.all.first?.hasPrefix("stub-server: could not record GET /search:") == true)
    }

    @Test func recordAll_turnsANewAnswerIntoTheNextSequenceStep() async throws {
        let fixtures = try TemporaryFixtures()
        defer { fixtures.remove() }
        let folder = fixtures.url("recording")
        let upstream = try StubServer.start(catalog: Self.upstreamCatalog())
        try await withRecordingStubServer(
            fixtures: folder, recording: .all(upstream: upstream.baseURL), api: "api", environment: [:]
        ) { server throws in
            #expect(try await get("/counter", from: server).text == #"{"n":1}"#)
            #expect(try await get("/counter", from: server).text == #"{"n":2}"#)
            #expect(try await get("/counter", from: server).text == #"{"n":2}"#, "an answer seen before adds no step")
        }
        await upstream.stop()
        try await withStubServer(fixtures: folder) { replay throws in
            #expect(replay.catalog.stub(named: "get-counter")?.sequence == ["good", "recorded-2"])
            #expect(try await get("/counter", from: replay).text == #"{"n":1}"#)
            #expect(try await get("/counter", from: replay).text == #"{"n":2}"#)
        }
    }

    @Test func redactedQueryParameters_becomePresenceMatchers() async throws {
        let fixtures = try TemporaryFixtures()
        defer { fixtures.remove() }
        let folder = fixtures.url("recording")
        let upstream = try StubServer.start(catalog: Self.upstreamCatalog())
        let configuration = StubServer.Configuration(redaction: Redaction(query: ["api_key"]))
        try await withRecordingStubServer(
            fixtures: folder, recording: .missing(upstream: upstream.baseURL), api: "api",
            configuration: configuration, environment: [:]
        ) { server throws in
            #expect(try await get("/search?term=a&api_key=s3cret-key", from: server).status == 200)
        }
        await upstream.stop()
        let stubs = String(decoding: files(in: folder)["api/stubs.json"] ?? Data(), as: UTF8.self)
        #expect(!stubs.contains("s3cret"))
        try await withStubServer(fixtures: folder) { replay throws in
            #expect(try await get("/search?term=a&api_key=another", from: replay).status == 200)
            #expect(try await get("/search?term=a", from: replay).status == 404)
        }
    }

    @Test func anUnreachableUpstream_is502AndNothingIsRecorded() async throws {
        let fixtures = try TemporaryFixtures()
        defer { fixtures.remove() }
        let folder = fixtures.url("recording")
        let refusing = try RefusingPort()
        try await withRecordingStubServer(
            fixtures: folder, recording: .missing(upstream: refusing.baseURL), environment: [:]
        ) { server throws in
            let response = try await get("/search?term=a", from: server)
            #expect(response.status == 502)
            #expect(try response.json()["error"] as? String ?? "" == "" ? false : true)
            #expect((try response.json()["error"] as? String)?.contains("upstream \(refusing.baseURL)") == true)
        }
        #expect(files(in: folder).isEmpty)
    }

    @Test func aSilentUpstream_is504AfterTheTimeout() async throws {
        let fixtures = try TemporaryFixtures()
        defer { fixtures.remove() }
        let folder = fixtures.url("recording")
        let upstream = try StubServer.start(catalog: Self.upstreamCatalog())
        let server = try StubServer.start(
            fixtures: folder, recording: .missing(upstream: upstream.baseURL), timeout: .seconds(1), environment: [:])
        let response = try await get("/slow", from: server)
        #expect(response.status == 504)
        #expect((try response.json()["error"] as? String)?.contains("did not answer within 1 s") == true)
        await server.stop()
        await upstream.stop()
    }

    @Test(arguments: [["CI": "true"], ["CI": ""], ["CI": "1", "HOME": "/root"]])
    func recordingInCI_isRefusedUnlessAllowed(_ environment: [String: String]) async throws {
        let fixtures = try TemporaryFixtures()
        defer { fixtures.remove() }
        let folder = fixtures.url("recording")
        let upstream = URL(string: "http://127.0.0.1:9")!
        #expect(throws: RecordingError.refusedInCI) {
            try StubServer.start(fixtures: folder, recording: .missing(upstream: upstream), environment: environment)
        }
        #expect(RecordingError.refusedInCI.description.contains("--allow-in-ci"))
        let allowed = try StubServer.start(
            fixtures: folder, recording: .all(upstream: upstream), environment: environment, allowInCI: true)
        await allowed.stop()
        let proxy = try StubServer.start(
            fixtures: folder, recording: .proxy(upstream: upstream), environment: environment)
        await proxy.stop()
    }

    @Test func proxy_answersUnstubbedRequestsFromTheUpstream_andWritesNothing() async throws {
        let stubs =
            #"{"stubs": [{"name": "local", "request": {"path": "/local"}, "variants": {"good": {"body": "mine"}, "bad": {"body": "{"}, "nil": {"body": ""}}}]}"#
        let fixtures = try TemporaryFixtures(["local/stubs.json": stubs])
        defer { fixtures.remove() }
        let folder = fixtures.root
        let before = files(in: folder)
        let upstream = try StubServer.start(catalog: Self.upstreamCatalog())
        try await withRecordingStubServer(
            fixtures: folder, recording: .proxy(upstream: upstream.baseURL), environment: [:]
        ) { server throws in
            #expect(try await get("/local", from: server).text == "mine")
            let proxied = try await get("/search?term=a", from: server)
            #expect(proxied.body == Self.searchBody)
            #expect(proxied.header("X-Stub-Forwarded") == "proxied")
            #expect(server.journal().map(\.forwarded) == [nil, "proxied"])
            #expect(try await server.unmatchedReports().isEmpty)
        }
        await upstream.stop()
        #expect(files(in: folder) == before)
    }
}

/// Lines a recorder logged, from any thread.
final class LogLines: Sendable {
    private let lines = Lock<[String]>([])
    var all: [String] { lines.withLock { $0 } }
    func append(_ line: String) { lines.withLock { $0.append(line) } }
}

import Foundation
import StubServer
import StubServerInProcess
import StubTestSupport
import TestTurns
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every stub of MockData and of a fixture folder of templates, sequences, scenarios and a large resource, served
/// twice in one server with its state changed between (variants, mutants, sequences, scenarios, resources), each
/// answer over the socket equal, byte for byte, to the in-process transport's: what a transport caches must never
/// stand in for an answer made per request.
@Suite(.takesTurns(.heavy), .timeLimit(.minutes(2)))
struct ServeTwiceTests {
    /// One request a stub's matchers accept.
    struct Probe: Sendable {
        var method = "GET"
        var target: String
        var headers: [String: String] = [:]
        var body: String?
    }

    /// A request for MockData's assistant turn at `path`, streamed or not.
    static func turnProbe(_ path: String, stream: Bool) -> Probe {
        Probe(
            method: "POST", target: path, headers: ["Content-Type": "application/json"],
            body: #"{"model": "catalog-assistant-1", "stream": \#(stream)}"#)
    }

    /// MockData's stubs, each with a request it answers; a stub missing here fails the test, so a new one is added.
    static let mockDataProbes: [String: Probe] = [
        "top-albums": Probe(target: "/api/v1/us/apple-music/top-albums/all/100/explicit.json"),
        "most-played-albums": Probe(target: "/api/v2/us/music/most-played/10/albums.json"),
        "album-artwork": Probe(target: "/artwork/1/100x100bb.jpg"),
        "favorite-albums": Probe(target: "/api/v1/me/favorite-albums"),
        "chat-completion": Probe(
            method: "POST", target: "/v1/chat/completions", headers: ["Content-Type": "application/json"],
            body: #"{"stream": true}"#),
        "top-albums-query": Probe(
            method: "POST", target: "/graphql", headers: ["Content-Type": "application/json"],
            body: #"{"operationName": "TopAlbums", "variables": {"limit": 2}, "query": "query TopAlbums { x }"}"#),
        "album-query": Probe(
            method: "POST", target: "/graphql", headers: ["Content-Type": "application/json"],
            body: #"{"operationName": "Album", "variables": {"id": "1600000001"}, "query": "query Album { x }"}"#),
        "movie-search": Probe(target: "/search?term=up&country=au&media=movie"),
        "jack-johnson-page-1": Probe(target: "/search?term=jack%20johnson&offset=0&limit=25"),
        "jack-johnson-page-2": Probe(target: "/search?term=jack%20johnson&offset=25&limit=25"),
        "jack-johnson-page-3": Probe(target: "/search?term=jack%20johnson&offset=50&limit=25"),
        "mixed-media": Probe(target: "/search?term=surf&offset=0&limit=25"),
        "track-search-other": Probe(target: "/search?term=x&offset=0&limit=25"),
        "live-updates": Probe(target: "/live"),
        "desserts": Probe(target: "/api/json/v1/1/filter.php?c=Dessert"),
        "dessert-crumble": Probe(target: "/api/json/v1/1/lookup.php?i=52893"),
        "dessert-apam-balik": Probe(target: "/api/json/v1/1/lookup.php?i=53049"),
        "dessert-lookup": Probe(target: "/api/json/v1/1/lookup.php?i=1"),
        "top-songs": Probe(target: "/us/rss/topsongs/25/xml"),
        "openai-chat-stream": turnProbe("/v1/chat/completions", stream: true),
        "openai-chat": turnProbe("/v1/chat/completions", stream: false),
        "openai-responses-stream": turnProbe("/v1/responses", stream: true),
        "openai-responses": turnProbe("/v1/responses", stream: false),
        "anthropic-stream": turnProbe("/v1/messages", stream: true),
        "anthropic": turnProbe("/v1/messages", stream: false),
        "gemini-stream": Probe(
            method: "POST", target: "/v1beta/models/catalog-assistant-1:streamGenerateContent?alt=sse", body: "{}"),
        "gemini-stream-array": Probe(
            method: "POST", target: "/v1beta/models/catalog-assistant-1:streamGenerateContent", body: "{}"),
        "gemini": Probe(method: "POST", target: "/v1beta/models/catalog-assistant-1:generateContent", body: "{}"),
    ]

    /// Large answers made per request: a template, a sequence of two large bodies, a scenario's two states, and a
    /// resource whose items are large.
    static let madeFixtures: [String: String] = [
        "api/stubs.json": #"""
        {
          "hosts": ["made.example.com"],
          "stubs": [
            { "name": "echo", "request": { "path": "/echo" },
              "variants": { "good": { "bodyFile": "big.txt", "template": true }, "bad": { "body": "{" },
                            "nil": { "body": "" } } },
            { "name": "steps", "request": { "path": "/steps" }, "sequence": ["good", "second"],
              "variants": { "good": { "bodyFile": "big-a.txt" }, "second": { "bodyFile": "big-b.txt" },
                            "bad": { "body": "{" }, "nil": { "body": "" } } },
            { "name": "door-closed", "request": { "path": "/door" }, "scenario": { "name": "door", "when": "start", "then": "open" },
              "variants": { "good": { "bodyFile": "big-a.txt" }, "bad": { "body": "{" }, "nil": { "body": "" } } },
            { "name": "door-open", "request": { "path": "/door" }, "scenario": { "name": "door", "when": "open" },
              "variants": { "good": { "bodyFile": "big-b.txt" }, "bad": { "body": "{" }, "nil": { "body": "" } } },
            { "name": "things", "request": { "path": "/things" }, "resource": { "seed": "things.json" },
              "variants": { "good": {}, "bad": { "body": "{" }, "nil": { "body": "" } } }
          ]
        }
        """#,
        "api/big.txt": "{{query.q}}" + String(repeating: "t", count: 40_000) + "{{query.q}}",
        "api/big-a.txt": String(repeating: "a", count: 40_000),
        "api/big-b.txt": String(repeating: "b", count: 50_000),
        "api/things.json": "[]",
    ]

    static let madeProbes: [String: Probe] = [
        "echo": Probe(target: "/echo?q=first"),
        "steps": Probe(target: "/steps"),
        "door-closed": Probe(target: "/door"),
        "door-open": Probe(target: "/door"),
        "things": Probe(target: "/things"),
    ]

    /// What one request got: the status, the answering stub and variant, and the body; or the error's code.
    struct Answer: Equatable, CustomStringConvertible {
        var status: Int?
        var stub: String?
        var variant: String?
        var body = Data()
        var error: Int?

        var description: String {
            if let error { return "error \(error)" }
            let start = String(decoding: body.prefix(60), as: UTF8.self).debugDescription
            return "\(status ?? 0) \(stub ?? "-")/\(variant ?? "-"), \(body.count) bytes starting \(start)"
        }
    }

    /// The same requests to a socket server and to in-process stubs of one catalog, compared answer by answer.
    struct Pair: Sendable {
        let socket: Stubs
        let inProcess: Stubs
        let catalog: StubCatalog
        let probes: [String: Probe]

        func answer(_ probe: Probe, on stubs: Stubs, host: String?, headers: [String: String]) async -> Answer {
            let base = host.map { "https://\($0)" } ?? stubs.baseURL.absoluteString
            // A minute only ends a hang.
            var request = URLRequest(url: URL(string: base + probe.target)!, timeoutInterval: 60)
            request.httpMethod = probe.method
            request.httpBody = probe.body.map { Data($0.utf8) }
            for (name, value) in probe.headers.merging(headers, uniquingKeysWith: { $1 }) {
                request.setValue(value, forHTTPHeaderField: name)
            }
            let session = URLSession(configuration: stubs.configuration)
            defer { session.finishTasksAndInvalidate() }
            do {
                let (data, response) = try await session.data(for: request)
                let http = response as? HTTPURLResponse
                return Answer(
                    status: http?.statusCode, stub: http?.value(forHTTPHeaderField: "X-Stub-Name"),
                    variant: http?.value(forHTTPHeaderField: "X-Stub-Variant"), body: data)
            } catch {
                return Answer(error: (error as? URLError)?.code.rawValue ?? -1)
            }
        }

        /// Sends stub `name`'s probe to both transports and expects the same answer; returns the socket's.
        @discardableResult
        func compare(_ name: String, _ round: String, headers: [String: String] = [:]) async throws -> Answer {
            let probe = try #require(probes[name], "no probe for \(name)")
            let host = catalog.stubs.first { $0.name == name }?.hosts.first
            async let socketAnswer = answer(probe, on: socket, host: nil, headers: headers)
            async let inProcessAnswer = answer(probe, on: self.inProcess, host: host, headers: headers)
            var (overSocket, inProcess) = await (socketAnswer, inProcessAnswer)
            if let host {
                // Templates write the URL the client reached: the loopback address over the socket, the real host
                // in process.
                let loopback = Data(socket.baseURL.absoluteString.trimmingCharacters(in: ["/"]).utf8)
                overSocket.body = overSocket.body.replacing(loopback, with: Data("https://\(host)".utf8))
            }
            if overSocket.error != nil || inProcess.error != nil {
                #expect(
                    (overSocket.error == nil) == (inProcess.error == nil),
                    "\(round): \(name): \(overSocket) vs \(inProcess)")
            } else {
                #expect(overSocket == inProcess, "\(round): \(name): socket \(overSocket), in process \(inProcess)")
            }
            return overSocket
        }

        /// Applies `change` to both servers.
        func both(_ change: @Sendable (any StubControl) async throws -> Void) async throws {
            try await change(socket.server)
            try await change(inProcess.server)
        }

        /// The variants whose answers are plain bytes at once: no fault, delay, pacing or WebSocket (those are
        /// the transports' own words, compared by `TransportParityTests`).
        func plainVariants(of name: String) -> [String] {
            guard let stub = catalog.stubs.first(where: { $0.name == name }) else { return [] }
            return stub.variants.filter { _, variant in
                variant.fault == nil && variant.faults == nil && variant.delayMs == 0 && variant.firstByteDelayMs == 0
                    && variant.pacing == nil && variant.script == nil
            }.keys.sorted()
        }
    }

    static func withPair(
        fixtures: URL, probes: [String: Probe], _ body: (Pair) async throws -> Void
    ) async throws {
        let catalog = try StubCatalog.load(from: fixtures)
        // Every stub has a probe, and each probe reaches its stub.
        #expect(Set(catalog.stubs.map(\.name)) == Set(probes.keys))
        try await Stubs.with(.socket, fixtures: fixtures, realHost: URL(string: "https://unused.example.com")!) {
            socket in
            try await Stubs.with(.inProcess, fixtures: fixtures, realHost: URL(string: "https://unused.example.com")!) {
                inProcess in
                try await body(Pair(socket: socket, inProcess: inProcess, catalog: catalog, probes: probes))
            }
        }
    }

    /// Stub `name` served by variant, by mutant, by a per-stub choice and back to its good fixture; a stream (whose
    /// mutants are refused alike) by variant only.
    static func rounds(of name: String, _ pair: Pair) async throws {
        let first = try await pair.compare(name, "first")
        #expect(first.stub == name || first.error != nil, "the probe reaches \(name): \(first)")
        for variant in pair.plainVariants(of: name) {
            try await pair.compare(name, "variant \(variant)", headers: ["X-Stub-Variant": variant])
        }
        let good = try #require(pair.catalog.stubs.first { $0.name == name }?.variants["good"])
        guard good.events == nil else { return }
        // A mutant chosen for the stub, then none: the fixture's own bytes come back.
        let mutants = good.mutants.map(\.id).filter { !$0.hasPrefix("delay:") && !$0.hasPrefix("fault:") }
        for mutant in [mutants.first, mutants.dropFirst(mutants.count / 2).first, mutants.last].compactMap({ $0 }) {
            try await pair.both { try await $0.setMutation(mutant, forStub: name) }
            try await pair.compare(name, "mutant \(mutant)")
        }
        try await pair.both { try await $0.setMutation(nil, forStub: name) }
        try await pair.compare(name, "after the mutants")
        try await pair.both { try await $0.setVariant("bad", forStub: name) }
        try await pair.compare(name, "bad chosen")
        try await pair.both { try await $0.setVariant(nil, forStub: name) }
        try await pair.compare(name, "good again")
    }

    @Test func mockDatasStubs_answerAlikeOverBothTransports_asTheirStateChanges() async throws {
        let folder = mockData
        try await Self.withPair(fixtures: folder, probes: Self.mockDataProbes) { pair in
            // Each stub's rounds change only its own state: the stubs go concurrently.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for name in Self.mockDataProbes.keys.sorted() where name != "live-updates" && name != "favorite-albums"
                {
                    group.addTask { try await Self.rounds(of: name, pair) }
                }
                try await group.waitForAll()
            }
            // MockData's resource: large albums added, listed, changed and removed.
            let path = "/api/v1/me/favorite-albums"
            for (index, size) in [20_000, 30_000, 640_000].enumerated() {
                let album = #"{"id": "\#(index + 1)", "name": "\#(String(repeating: "n", count: size))"}"#
                var added = Probe(method: "POST", target: path, body: album)
                added.headers = ["Content-Type": "application/json"]
                try await pair.compareProbe(added, "add \(index + 1)", stub: "favorite-albums")
                try await pair.compare("favorite-albums", "list after \(index + 1)")
            }
            try await pair.compareProbe(
                Probe(method: "PATCH", target: path + "/1", body: #"{"name": "short"}"#), "rename",
                stub: "favorite-albums")
            try await pair.compare("favorite-albums", "list after the rename")
            try await pair.both { try await $0.reset() }
            try await pair.compare("favorite-albums", "list after reset")
        }
    }

    @Test func answersMadePerRequest_answerAlikeOverBothTransports() async throws {
        let fixtures = try TemporaryFixtures(Self.madeFixtures)
        defer { fixtures.remove() }
        try await Self.withPair(fixtures: fixtures.root, probes: Self.madeProbes) { pair in
            for q in ["first", "second", "third"] {
                try await pair.compareProbe(Probe(target: "/echo?q=\(q)"), "template \(q)", stub: "echo")
            }
            #expect(try await pair.compare("steps", "sequence 1").body.first == UInt8(ascii: "a"))
            #expect(try await pair.compare("steps", "sequence 2").body.first == UInt8(ascii: "b"))
            #expect(try await pair.compare("door-closed", "scenario start").stub == "door-closed")
            #expect(try await pair.compare("door-open", "scenario open").stub == "door-open")
            try await pair.both { try await $0.reset() }
            #expect(try await pair.compare("steps", "sequence after reset").body.first == UInt8(ascii: "a"))
            for (index, size) in [17_000, 17_001, 90_000].enumerated() {
                let item = #"{"id": \#(index + 1), "text": "\#(String(repeating: "x", count: size))"}"#
                try await pair.compareProbe(Probe(method: "POST", target: "/things", body: item), "add", stub: "things")
                try await pair.compareProbe(Probe(target: "/things/\(index + 1)"), "read", stub: "things")
                try await pair.compare("things", "list \(index + 1)")
            }
        }
    }
}

extension ServeTwiceTests.Pair {
    /// Sends `probe`, a request to stub `stub` other than its own probe, to both transports.
    func compareProbe(_ probe: ServeTwiceTests.Probe, _ round: String, stub: String) async throws {
        var probes = self.probes
        probes[stub] = probe
        let pair = ServeTwiceTests.Pair(socket: socket, inProcess: inProcess, catalog: catalog, probes: probes)
        try await pair.compare(stub, round)
    }
}

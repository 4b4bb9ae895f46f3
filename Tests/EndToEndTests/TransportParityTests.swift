import Foundation
import NetworkingTestSupport
import StubServer
import StubServerInProcess
import StubServerTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The server's behaviour as URLSession meets it, over both transports: the same stub, variant, status, body,
/// journal and strict-helper messages; faults in URLSession's words.
@Suite(.timeLimit(.minutes(1)))
struct TransportParityTests {
    static let host = URL(string: "https://api.example.com")!
    static let body = #"{"id":1,"name":"thirty-three bytes"}"#

    static let stubsJSON = #"""
        {
          "hosts": ["api.example.com"],
          "stubs": [
            {
              "name": "item",
              "request": { "path": "/items/{id}" },
              "variants": {
                "good": { "headers": { "Content-Type": "application/json" }, "body": "BODY" },
                "bad": { "body": "{" },
                "nil": { "body": "" },
                "throttled": { "like": "good", "throttle": { "bytesPerSecond": 400 } },
                "chunked": { "like": "good", "chunked": { "size": 10, "delayMs": 20 } },
                "late": { "like": "good", "firstByteDelayMs": 100 },
                "drop": { "fault": "drop" },
                "reset": { "fault": "reset" },
                "truncate": { "like": "good", "fault": "truncate" },
                "malformed": { "fault": "malformed" },
                "hang": { "fault": "hang" }
              }
            },
            {
              "name": "link",
              "request": { "path": "/link" },
              "variants": {
                "good": { "body": "{{baseURL}}/items/{{query.id}}", "template": true },
                "bad": { "body": "{" },
                "nil": { "body": "" }
              }
            },
            {
              "name": "create",
              "request": { "method": "POST", "path": "/items", "body": { "jsonPath": { "name": "tea" } } },
              "variants": { "good": { "status": 201, "body": "made" }, "bad": { "body": "{" }, "nil": { "body": "" } }
            }
          ]
        }
        """#.replacingOccurrences(of: "BODY", with: body.replacingOccurrences(of: "\"", with: "\\\""))

    /// Runs `body` with a server of this suite's fixtures over `transport`.
    static func withStubs<T>(_ transport: Transport, _ body: (Stubs) async throws -> T) async throws -> T {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("parity-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("api"), withIntermediateDirectories: true)
        try Data(stubsJSON.utf8).write(to: root.appendingPathComponent("api/stubs.json"))
        return try await Stubs.with(transport, fixtures: root, realHost: host, body)
    }

    static func request(_ stubs: Stubs, _ path: String, variant: String? = nil, timeout: TimeInterval = 5)
        -> URLRequest
    {
        var request = URLRequest(url: URL(string: stubs.baseURL.absoluteString + path)!)
        request.timeoutInterval = timeout
        if let variant { request.setValue(variant, forHTTPHeaderField: "X-Stub-Variant") }
        return request
    }

    @Test(arguments: Transport.allCases, URLSessionAPI.allCases)
    func everyPacedGoodAnswer_arrivesWhole(_ transport: Transport, _ api: URLSessionAPI) async throws {
        try await Self.withStubs(transport) { stubs in
            for variant in ["good", "throttled", "chunked", "late"] {
                let fetched = await api.fetch(
                    Self.request(stubs, "/items/1", variant: variant), with: stubs.configuration)
                #expect(fetched.error == nil, "\(variant)")
                #expect(fetched.status == 200, "\(variant)")
                #expect(String(decoding: fetched.data, as: UTF8.self) == Self.body, "\(variant)")
            }
        }
    }

    @Test(arguments: Transport.allCases, URLSessionAPI.allCases)
    func eachFault_endsTheTaskWithAURLError(_ transport: Transport, _ api: URLSessionAPI) async throws {
        try await Self.withStubs(transport) { stubs in
            for (variant, code) in Self.faultErrors(transport) {
                let fetched = await api.fetch(
                    Self.request(stubs, "/items/1", variant: variant), with: stubs.configuration)
                #expect(fetched.error != nil, "\(variant)")
                if code == nil { print("\(transport) \(api) \(variant): \(String(describing: fetched.error?.code))") }
                if let code { #expect(fetched.error?.code == code, "\(variant): \(String(describing: fetched.error))") }
            }
            #expect(stubs.server.requestCount(JournalQuery(stub: "item")) == 4)
        }
    }

    /// The error each fault ends a task with: in process the ones `StubLoad` names, on every platform; over a
    /// socket what the platform's URLSession makes of the bytes: on Linux libcurl's errors as swift-corelibs-foundation
    /// maps them (an empty reply is a bad answer, a short body and a bad status line are others), on Apple platforms
    /// nil here: any `URLError` will do (the test prints the codes).
    static func faultErrors(_ transport: Transport) -> [(String, URLError.Code?)] {
        #if canImport(FoundationNetworking)
            if transport == .socket {
                return [
                    ("drop", .badServerResponse), ("reset", .networkConnectionLost), ("truncate", .unknown),
                    ("malformed", .unsupportedURL),
                ]
            }
        #else
            if transport == .socket { return [("drop", nil), ("reset", nil), ("truncate", nil), ("malformed", nil)] }
        #endif
        return [
            ("drop", .networkConnectionLost), ("reset", .networkConnectionLost), ("truncate", .networkConnectionLost),
            ("malformed", .badServerResponse),
        ]
    }

    @Test(arguments: Transport.allCases, URLSessionAPI.allCases)
    func hang_endsAtTheRequestsTimeout(_ transport: Transport, _ api: URLSessionAPI) async throws {
        try await Self.withStubs(transport) { stubs in
            let fetched = await api.fetch(
                Self.request(stubs, "/items/1", variant: "hang", timeout: 0.5), with: stubs.configuration)
            #expect(fetched.error?.code == .timedOut)
        }
    }

    @Test(arguments: Transport.allCases)
    func aCancelledHang_endsAtOnce(_ transport: Transport) async throws {
        try await Self.withStubs(transport) { stubs in
            let session = URLSession(configuration: stubs.configuration)
            let task = Task {
                try await session.data(for: Self.request(stubs, "/items/1", variant: "hang", timeout: 30))
            }
            try await waitUntil("the request to be journaled") { stubs.server.requestCount(JournalQuery()) == 1 }
            task.cancel()
            await #expect(throws: URLError.self) { try await task.value }
        }
    }

    @Test(arguments: Transport.allCases)
    func theJournal_recordsTheSameFields(_ transport: Transport) async throws {
        try await Self.withStubs(transport) { stubs in
            let session = URLSession(configuration: stubs.configuration)
            var create = Self.request(stubs, "/items?draft=1")
            create.httpMethod = "POST"
            create.httpBody = Data(#"{"name":"tea"}"#.utf8)
            create.setValue("application/json", forHTTPHeaderField: "Content-Type")
            let (made, response) = try await session.data(for: create)
            #expect((response as? HTTPURLResponse)?.statusCode == 201)
            #expect(String(decoding: made, as: UTF8.self) == "made")
            _ = try await session.data(for: Self.request(stubs, "/items/7", variant: "bad"))
            _ = try await session.data(for: Self.request(stubs, "/nowhere?q=a+b"))
            let entries = stubs.server.journal(JournalQuery())
            #expect(entries.map(\.method) == ["POST", "GET", "GET"])
            #expect(entries.map(\.path) == ["/items", "/items/7", "/nowhere"])
            #expect(entries.map(\.target) == ["/items?draft=1", "/items/7", "/nowhere?q=a+b"])
            #expect(entries.map(\.stub) == ["create", "item", nil])
            #expect(entries.map(\.variant) == ["good", "bad", nil])
            #expect(entries.map(\.status) == [201, 200, 404])
            #expect(entries.first?.body == Data(#"{"name":"tea"}"#.utf8))
        }
    }

    @Test func theStrictHelpersSayTheSameOverBothTransports() async throws {
        var messages: [Transport: [String]] = [:]
        for transport in Transport.allCases {
            messages[transport] = try await Self.withStubs(transport) { stubs in
                let session = URLSession(configuration: stubs.configuration)
                _ = try await session.data(for: Self.request(stubs, "/items/1"))
                _ = try await session.data(for: Self.request(stubs, "/itemz/1"))
                let mismatch = stubs.server.requestCountMismatch(JournalQuery(stub: "item", variant: "bad"), count: 1)
                return [mismatch ?? "no mismatch"] + stubs.server.unmatchedReports()
            }
        }
        #expect(messages[.socket] == messages[.inProcess])
        #expect(messages[.inProcess]?.count == 2)
    }

    @Test(arguments: Transport.allCases)
    func aTemplatesBaseURL_isWhereTheClientSentTheRequest(_ transport: Transport) async throws {
        try await Self.withStubs(transport) { stubs in
            let (data, _) = try await URLSession(configuration: stubs.configuration).data(
                for: Self.request(stubs, "/link?id=9"))
            #expect(String(decoding: data, as: UTF8.self) == stubs.baseURL.absoluteString + "/items/9")
        }
    }

    @Test(arguments: Transport.allCases)
    func aBodyOverTheLimit_is413(_ transport: Transport) async throws {
        try await Self.withStubs(transport) { stubs in
            var request = Self.request(stubs, "/items")
            request.httpMethod = "POST"
            request.httpBody = Data(repeating: 0x61, count: (1 << 20) + 1)
            let (data, response) = try await URLSession(configuration: stubs.configuration).data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 413)
            #expect(String(decoding: data, as: UTF8.self).contains("exceeds the limit of 1048576 bytes"))
        }
    }
    @Test(arguments: Transport.allCases)
    func theControlAPI_behavesAlike(_ transport: Transport) async throws {
        try await Self.withStubs(transport) { stubs in
            let server = stubs.server
            #expect(server.catalog.stubs.map(\.name) == ["item", "link", "create"])
            try server.setVariant("bad")
            try server.setVariant("nil", forStub: "item")
            #expect(server.serverVariant == "bad")
            #expect(server.variant(forStub: "item") == "nil")
            #expect(throws: StubServerError.variantNowhere("gone")) { try server.setVariant("gone") }
            #expect(throws: StubServerError.unknownStub("nope", known: ["item", "link", "create"])) {
                try server.setVariant("good", forStub: "nope")
            }
            #expect(throws: StubServerError.unknownScenario("login", known: [])) {
                try server.setScenario("login", to: "in")
            }
            #expect(server.scenarios.isEmpty)
            let session = URLSession(configuration: stubs.configuration)
            #expect(try await session.data(for: Self.request(stubs, "/items/1")).0.isEmpty, "the per-stub nil")
            #expect(try await session.data(for: Self.request(stubs, "/link?id=1")).0 == Data("{".utf8), "server-wide")
            server.clearJournal()
            #expect(server.requestCount(JournalQuery()) == 0)
            _ = try await session.data(for: Self.request(stubs, "/items/1"))
            server.reset()
            #expect(server.serverVariant == nil)
            #expect(server.variant(forStub: "item") == nil)
            #expect(server.requestCount(JournalQuery()) == 0)
            #expect(try server.reload().stubs.count == 3)
            #expect(server.unmatchedRequests().isEmpty)
        }
    }
}

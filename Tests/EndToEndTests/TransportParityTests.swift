import Foundation
import NetworkingTestSupport
import StubServer
import StubServerInProcess
import StubServerRemote
import StubServerTesting
import StubTestSupport
import TestTurns
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The server's behaviour as URLSession meets it, over both transports: the same stub, variant, status, body,
/// journal and strict-helper messages; faults in URLSession's words.
@Suite(.takesTurns(.heavy), .timeLimit(.minutes(1)))
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

    /// Runs `body` with a server of this suite's fixtures, controlled as `control` says.
    static func withStubs<T>(controlledAs control: Control, _ body: (Stubs) async throws -> T) async throws -> T {
        try await withStubs(control.transport) { stubs in try await stubs.controlled(as: control, body) }
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
            let itemRequests = try await stubs.server.requestCount(JournalQuery(stub: "item"))
            #expect(itemRequests == 4)
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
            try await waitUntil("the request to be journaled") {
                try await stubs.server.requestCount(JournalQuery()) == 1
            }
            task.cancel()
            // Cancelled, not timed out: the request's 30 s would end a hang the cancel failed to end.
            await #expect {
                try await task.value
            } throws: { error in
                (error as? URLError)?.code == .cancelled
            }
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
            let entries = try await stubs.server.journal(JournalQuery())
            #expect(entries.map(\.method) == ["POST", "GET", "GET"])
            #expect(entries.map(\.path) == ["/items", "/items/7", "/nowhere"])
            #expect(entries.map(\.target) == ["/items?draft=1", "/items/7", "/nowhere?q=a+b"])
            #expect(entries.map(\.stub) == ["create", "item", nil])
            #expect(entries.map(\.variant) == ["good", "bad", nil])
            #expect(entries.map(\.status) == [201, 200, 404])
            #expect(entries.first?.body == Data(#"{"name":"tea"}"#.utf8))
        }
    }

    @Test func theStrictHelpersSayTheSame_overBothTransportsAndRemotely() async throws {
        var messages: [Control: [String]] = [:]
        for control in Control.allCases {
            messages[control] = try await Self.withStubs(controlledAs: control) { stubs in
                let session = URLSession(configuration: stubs.configuration)
                _ = try await session.data(for: Self.request(stubs, "/items/1"))
                _ = try await session.data(for: Self.request(stubs, "/itemz/1"))
                let mismatch = try await stubs.server.requestCountMismatch(
                    JournalQuery(stub: "item", variant: "bad"), count: 1)
                let reports = try await stubs.server.unmatchedReports()
                return [mismatch ?? "no mismatch"] + reports
            }
        }
        #expect(messages[.socket] == messages[.inProcess])
        #expect(messages[.remote] == messages[.socket])
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
    @Test(arguments: Control.allCases)
    func theControlAPI_behavesAlike(_ control: Control) async throws {
        try await Self.withStubs(controlledAs: control) { stubs in
            let server = stubs.server
            try await server.setVariant("bad")
            try await server.setVariant("nil", forStub: "item")
            #expect(try await server.serverVariant == "bad")
            #expect(try await server.variant(forStub: "item") == "nil")
            await #expect(throws: StubServerError.variantNowhere("gone")) { try await server.setVariant("gone") }
            await #expect(throws: StubServerError.unknownStub("nope", known: ["item", "link", "create"])) {
                try await server.setVariant("good", forStub: "nope")
            }
            await #expect(throws: StubServerError.unknownScenario("login", known: [])) {
                try await server.setScenario("login", to: "in")
            }
            #expect(try await server.scenarios.isEmpty)
            let session = URLSession(configuration: stubs.configuration)
            #expect(try await session.data(for: Self.request(stubs, "/items/1")).0.isEmpty, "the per-stub nil")
            #expect(try await session.data(for: Self.request(stubs, "/link?id=1")).0 == Data("{".utf8), "server-wide")
            try await server.clearJournal()
            #expect(try await server.requestCount(JournalQuery()) == 0)
            _ = try await session.data(for: Self.request(stubs, "/items/1"))
            try await server.reset()
            #expect(try await server.serverVariant == nil)
            #expect(try await server.variant(forStub: "item") == nil)
            #expect(try await server.requestCount(JournalQuery()) == 0)
            // Every field of a journal query, a `+` in a value included.
            _ = try await session.data(for: Self.request(stubs, "/items/2?color=a%2Bb&size=9"))
            let every = JournalQuery(
                stub: "item", variant: "good", method: "GET", path: "/items/2", query: ["color": "a+b"],
                bodyContains: "")
            #expect(try await server.requestCount(every) == 1)
            #expect(try await server.journal(every).map(\.target) == ["/items/2?color=a%2Bb&size=9"])
            #expect(try await server.requestCount(JournalQuery(query: ["color": "a b"])) == 0)
            try await server.setMutation("status:503", forStub: "item")
            #expect(try await server.mutation(forStub: "item") == "status:503")
            try await server.setMutation(nil, forStub: "item")
            #expect(try await server.mutation(forStub: "item") == nil)
            do {
                try await server.setVariant("gone", forStub: "item")
                Issue.record("a variant the stub lacks was chosen")
            } catch let error as StubServerError {
                guard case .unknownVariant("gone", "item", let available) = error else { throw error }
                #expect(available.contains("hang"))
            }
            #expect(try await server.reload().stubs == 3)
            #expect(try await server.unmatchedRequests().isEmpty)
        }
    }
}

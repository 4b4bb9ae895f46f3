import Foundation
import Locking
import StubTestSupport
import TestTurns
import Testing

@testable import StubCore
@testable import StubServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Server-Sent Events over real sockets: MockData's chat stream read by a raw client and by URLSession, each event
/// at or after its scripted time (never before), resumed, kept alive, cut, and journaled.
@Suite(.takesTurns(.heavy), .timeLimit(.minutes(1)))
struct ServerSentEventsTests {
    static let chatPath = "/v1/chat/completions"
    static let chatBody = #"{"model":"catalog","stream":true,"messages":[{"role":"user","content":"dessert?"}]}"#

    /// The events of MockData's recorded chat stream, as the file scripts them.
    static func scriptedChat() throws -> [ServerSentEvent] {
        let folder = try #require(StubCatalog.findFolder())
        let bytes = try Data(contentsOf: folder.appendingPathComponent("chat/chat.good.sse"))
        return try EventStreamFile.parse([UInt8](bytes))
    }

    /// The chat request as an app makes it with URLSession.
    static func chatRequest(_ server: StubServer) -> URLRequest {
        var request = URLRequest(url: server.baseURL.appendingPathComponent(chatPath))
        request.httpMethod = "POST"
        request.httpBody = Data(chatBody.utf8)
        request.timeoutInterval = 10
        return request
    }

    /// One stream read by a raw client: the head, and each event's id with when it arrived after the request.
    struct ReadStream {
        var head: String
        var wire: String
        var arrivals: [(id: String, seconds: Double)]
        var endedProperly: Bool { wire.hasSuffix("\r\n0\r\n\r\n") }
    }

    static func readStream(_ port: Int, headers: String = "") async throws -> ReadStream {
        let request = post(chatPath, chatBody, "Connection: close\r\n\(headers)")
        let client = try await RawHTTPClient(port: port)
        let sent = RawHTTPClient.now()
        try await client.send(request)
        var wire = ""
        var arrivals: [(String, Double)] = []
        for arrival in await client.readArrivals() {
            wire += String(decoding: arrival.bytes, as: UTF8.self)
            let seen = Set(arrivals.map(\.0))
            for match in wire.matches(of: /id: ([0-9]+)\n/) where !seen.contains(String(match.1)) {
                arrivals.append((String(match.1), arrival.time - sent))
            }
        }
        let head = wire.components(separatedBy: "\r\n\r\n").first ?? ""
        return ReadStream(head: head, wire: wire, arrivals: arrivals)
    }

    @Test func theChatStream_arrivesInOrder_eachEventNoSoonerThanItsScriptedTime() async throws {
        let script = try Self.scriptedChat()
        try await withStubServer(catalog: try await MockData.catalog()) { server in
            let stream = try await Self.readStream(server.port)
            #expect(stream.head.hasPrefix("HTTP/1.1 200 OK"))
            #expect(stream.head.contains("Content-Type: text/event-stream"))
            #expect(stream.head.contains("Transfer-Encoding: chunked"))
            #expect(stream.head.contains("Cache-Control: no-cache"))
            #expect(stream.arrivals.map(\.id) == script.compactMap(\.id), "every event, in order")
            var due = 0
            for (event, arrival) in zip(script, stream.arrivals) {
                due += event.delayMs
                #expect(arrival.seconds >= Double(due) / 1000 - 0.001, "event \(arrival.id) came before its time")
            }
            #expect(stream.endedProperly, "the chunked body ends with its last chunk")
            #expect(stream.wire.contains("event: done\ndata: [DONE]\n\n"))
            let entry = try #require(server.journal(JournalQuery(stub: "chat-completion")).last)
            #expect(entry.eventsSent == script.count)
            #expect(entry.fault == nil && entry.status == 200)
        }
    }

    @Test(arguments: [("3", "4"), ("15", "16"), ("unknown", "1")])
    func lastEventID_resumesAfterThatEvent(_ lastID: String, firstSent: String) async throws {
        try await withStubServer(catalog: try await MockData.catalog()) { server in
            let stream = try await Self.readStream(server.port, headers: "Last-Event-ID: \(lastID)\r\n")
            #expect(stream.arrivals.first?.id == firstSent)
            #expect(stream.arrivals.last?.id == "16")
            #expect(stream.endedProperly)
        }
    }

    @Test func theDroppingVariant_endsAfterItsEvents_withoutTheLastChunk_andTheJournalSaysSo() async throws {
        try await withStubServer(catalog: try await MockData.catalog()) { server in
            let stream = try await Self.readStream(server.port, headers: "X-Stub-Variant: drop\r\n")
            #expect(stream.arrivals.map(\.id) == ["1", "2", "3", "4"])
            #expect(!stream.endedProperly, "a cut stream has no last chunk")
            let entry = try #require(server.journal(JournalQuery(stub: "chat-completion")).last)
            #expect(entry.variant == "drop" && entry.status == 200 && entry.fault == .drop)
            #expect(entry.eventsSent == 4)
        }
    }

    @Test func theErrorVariant_sendsAnErrorEventWithJSONData() async throws {
        try await withStubServer(catalog: try await MockData.catalog()) { server in
            let stream = try await Self.readStream(server.port, headers: "X-Stub-Variant: error\r\n")
            #expect(
                stream.wire.contains(
                    #"event: error\#ndata: {"error":{"message":"The assistant is busy; try again shortly.","type":"overloaded"}}"#
                ))
            #expect(stream.endedProperly)
        }
    }

    static let stubs = #"""
        {"stubs": [{"name": "live", "request": {"path": "/live"},
          "variants": {
            "good": {"events": [{"data": "a", "id": "1"}, {"data": "b", "id": "2", "delayMs": 170}], "keepAliveMs": 50},
            "bad": {"events": [{"data": "{"}]}, "nil": {"body": ""},
            "reset": {"like": "good", "fault": "reset", "dropAfterEvents": 1},
            "truncate": {"like": "good", "fault": "truncate"},
            "slow": {"events": [{"data": "a"}, {"data": "b", "delayMs": 60000}]}}}]}
        """#

    @Test func keepAlive_sendsPingCommentsWhileTheStreamIsIdle() async throws {
        try await withServer(stubs: Self.stubs) { server in
            let port = server.port
            let client = try await RawHTTPClient(port: port)
            try await client.send(get("/live", "Connection: close\r\n"))
            let wire = String(decoding: await client.readToEnd(), as: UTF8.self)
            let body = wire.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
            let blocks = body.matches(of: /: ping|data: [a-z]/).map { String($0.0) }
            #expect(blocks == ["data: a", ": ping", ": ping", ": ping", "data: b"], "a ping every 50 ms of 170")
        }
    }

    @Test(arguments: [("reset", true, 1), ("truncate", false, 1)])
    func aFault_breaksTheStreamAfterItsEvents(_ variant: String, endsWithReset: Bool, events: Int) async throws {
        try await withServer(stubs: Self.stubs) { server in
            let port = server.port
            let client = try await RawHTTPClient(port: port)
            try await client.send(get("/live", "X-Stub-Variant: \(variant)\r\n"))
            _ = try await client.readResponse(head: true)
            let reset = await client.readEndsWithReset()
            #expect(reset == endsWithReset)
            try await waitUntil("the stream's end is journaled") {
                server.journal(JournalQuery(stub: "live")).last?.eventsSent != nil
            }
            let entry = try #require(server.journal(JournalQuery(stub: "live")).last)
            #expect(entry.eventsSent == events)
            #expect(entry.fault?.rawValue == variant && entry.status == 200)
        }
    }

    /// The client must leave between the first event and the second: a window. Beside two CPU-bound processes the
    /// test's task once waited past the second event's 10 s for its turn (it counted 2); the second event now
    /// comes after a minute, and the client leaves as a prompt one would.
    @Test func aClientThatLeavesMidStream_isJournaledWithTheEventsItGot() async throws {
        try await withServer(stubs: Self.stubs) { server in
            let port = server.port
            let status = try await promptly {  // the client leaves at the end of this block
                let client = try await RawHTTPClient(port: port)
                try await client.send(get("/live", "X-Stub-Variant: slow\r\n"))
                return try await client.readResponse(head: true).status
            }
            #expect(status == 200)
            try await waitUntil("the stream's end is journaled") {
                server.journal(JournalQuery(stub: "live")).last?.eventsSent != nil
            }
            #expect(server.journal(JournalQuery(stub: "live")).last?.eventsSent == 1)
        }
    }

    /// URLSession's delegate receives each event as it comes, not the body at its end.
    @Test func urlSession_delegateReadsEachEventAtItsTime() async throws {
        let script = try Self.scriptedChat()
        try await withStubServer(catalog: try await MockData.catalog()) { server in
            let request = Self.chatRequest(server)
            let reader = StreamReader()
            let session = URLSession(configuration: .ephemeral, delegate: reader, delegateQueue: nil)
            defer { session.invalidateAndCancel() }
            let sent = RawHTTPClient.now()
            session.dataTask(with: request).resume()
            try await waitUntil("the stream ends") { reader.state.withLock { $0.finished } }
            let (pieces, error) = reader.state.withLock { ($0.pieces, $0.error) }
            #expect(error == nil)
            var text = ""
            var arrivals: [(String, Double)] = []
            for piece in pieces {
                text += String(decoding: piece.data, as: UTF8.self)
                for match in text.matches(of: /id: ([0-9]+)\n/) where !arrivals.contains(where: { $0.0 == match.1 }) {
                    arrivals.append((String(match.1), piece.time - sent))
                }
            }
            #expect(arrivals.map(\.0) == script.compactMap(\.id))
            #expect(pieces.count >= 2, "the body came in pieces, not at once")
            var due = 0
            for (event, arrival) in zip(script, arrivals) {
                due += event.delayMs
                #expect(arrival.1 >= Double(due) / 1000 - 0.001, "event \(arrival.0) came before its time")
            }
        }
    }

    #if !canImport(FoundationNetworking)
        /// `bytes(for:)` reads the stream line by line as it comes (Apple platforms; FoundationNetworking has none).
        @Test func urlSession_bytesReadTheStreamLineByLine() async throws {
            let script = try Self.scriptedChat()
            try await withStubServer(catalog: try await MockData.catalog()) { server in
                let (bytes, response) = try await URLSession.shared.bytes(for: Self.chatRequest(server))
                #expect((response as? HTTPURLResponse)?.statusCode == 200)
                var ids: [String] = []
                for try await line in bytes.lines where line.hasPrefix("id: ") { ids.append(String(line.dropFirst(4))) }
                #expect(ids == script.compactMap(\.id))
            }
        }
    #endif
}

/// Collects a data task's pieces with when each arrived.
final class StreamReader: NSObject, URLSessionDataDelegate, Sendable {
    struct State {
        var pieces: [(data: Data, time: Double)] = []
        var finished = false
        var error: (any Error)?
    }
    let state = Lock(State())

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let now = RawHTTPClient.now()
        state.withLock { $0.pieces.append((data, now)) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        state.withLock {
            $0.error = error
            $0.finished = true
        }
    }
}

import Foundation
import StubTestSupport
import TestTurns
import Testing

@testable import StubCore
@testable import StubServerInProcess

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// MockData's chat stream in process: the events at their times, resumed, cut, and journaled like over a socket.
/// On Linux, FoundationNetworking keeps only a custom protocol's last `didLoad` for `data(for:)`, so the stream
/// arrives whole at the time of its last event; Apple platforms hand each event to the task as it comes.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct InProcessEventStreamTests {
    static let chat = URL(string: "https://chat.catalog.test/v1/chat/completions")!

    static func request(variant: String? = nil, lastEventID: String? = nil) -> URLRequest {
        var request = URLRequest(url: chat)
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"stream":true}"#.utf8)
        request.setValue(variant, forHTTPHeaderField: "X-Stub-Variant")
        request.setValue(lastEventID, forHTTPHeaderField: "Last-Event-ID")
        return request
    }

    static func script() throws -> [ServerSentEvent] {
        try EventStreamFile.parse([UInt8](Data(contentsOf: mockData.appendingPathComponent("chat/chat.good.sse"))))
    }

    @Test func theChatStream_arrivesWhole_noSoonerThanItsLastEvent_andIsJournaled() async throws {
        let script = try Self.script()
        let stubs = InProcessStubs.start(catalog: try await MockData.catalog())
        let clock = ContinuousClock()
        let started = clock.now
        let (data, response) = try await stubs.urlSession.data(for: Self.request())
        let elapsed = clock.now - started
        await stubs.stop()
        #expect(data == Data(script.flatMap(\.wire)))
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.value(forHTTPHeaderField: "Content-Type") == "text/event-stream")
        #expect(http.value(forHTTPHeaderField: "Content-Length") == nil, "a stream announces no length")
        #expect(elapsed >= .milliseconds(script.reduce(0) { $0 + $1.delayMs }))
        #expect(stubs.journal().last?.eventsSent == script.count)
    }

    @Test func lastEventID_resumesAfterThatEvent() async throws {
        let stubs = InProcessStubs.start(catalog: try await MockData.catalog())
        let (data, _) = try await stubs.urlSession.data(for: Self.request(lastEventID: "13"))
        await stubs.stop()
        #expect(String(decoding: data, as: UTF8.self).hasPrefix("id: 14\n"))
        #expect(stubs.journal().last?.eventsSent == 3)
    }

    @Test func theDroppingVariant_failsAsALostConnection_afterItsEvents() async throws {
        let stubs = InProcessStubs.start(catalog: try await MockData.catalog())
        await #expect {
            _ = try await stubs.urlSession.data(for: Self.request(variant: "drop"))
        } throws: { error in
            (error as? URLError)?.code == .networkConnectionLost
        }
        await stubs.stop()
        let entry = try #require(stubs.journal().last)
        #expect(entry.eventsSent == 4 && entry.fault == .drop && entry.status == 200)
    }
}

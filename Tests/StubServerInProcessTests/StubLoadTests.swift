import Dispatch
import Foundation
import HTTPMessages
import Locking
import StubTestSupport
import TestTurns
import Testing

@testable import StubCore
@testable import StubServerInProcess

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A protocol client that records each call and holds `urlProtocolDidFinishLoading` until released.
private final class HoldingClient: NSObject, URLProtocolClient, Sendable {
    let events = Lock<[String]>([])
    let release = DispatchSemaphore(value: 0)  // blocking-ok: waited on by the load's queue, not a test's task

    func urlProtocol(_ protocol: URLProtocol, wasRedirectedTo request: URLRequest, redirectResponse: URLResponse) {}
    func urlProtocol(_ protocol: URLProtocol, cachedResponseIsValid cachedResponse: CachedURLResponse) {}
    func urlProtocol(
        _ protocol: URLProtocol, didReceive response: URLResponse, cacheStoragePolicy policy: URLCache.StoragePolicy
    ) {
        events.withLock { $0.append("response") }
    }
    func urlProtocol(_ protocol: URLProtocol, didLoad data: Data) {
        events.withLock { $0.append("body") }
    }
    func urlProtocolDidFinishLoading(_ protocol: URLProtocol) {
        events.withLock { $0.append("finishing") }
        release.wait()  // blocking-ok: the load's own queue calls this, holding the load's end on purpose
        events.withLock { $0.append("finished") }
    }
    func urlProtocol(_ protocol: URLProtocol, didFailWithError error: any Error) {
        events.withLock { $0.append("failed") }
    }
    func urlProtocol(_ protocol: URLProtocol, didReceive challenge: URLAuthenticationChallenge) {}
    func urlProtocol(_ protocol: URLProtocol, didCancel challenge: URLAuthenticationChallenge) {}
}

@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct StubLoadTests {
    /// `stopLoading` (the load's `cancel`) returns only once a client call under way has returned, also the call
    /// that ends the load: swift-corelibs-foundation reports the cancellation right after `stopLoading`, and a
    /// completion still running then is resumed twice (`data(from:)` crashed the test process that way).
    @Test func cancel_waitsForTheCallThatEndsTheLoad() async throws {
        let client = HoldingClient()
        let url = URL(string: "https://api.example.com/item")!
        let urlProtocol = URLProtocol(request: URLRequest(url: url), cachedResponse: nil, client: client)
        let load = StubLoad(
            answer: StubAnswer(status: .ok, body: Array("ok".utf8)), url: url, omitsBody: false,
            timeout: .seconds(10), channel: ClientChannel(urlProtocol), onEnd: {})
        load.start()
        try await waitUntil("the load to finish") { client.events.withLock { $0.contains("finishing") } }
        Thread {
            load.cancel()
            client.events.withLock { $0.append("cancel returned") }
        }.start()
        // Time for a cancel that does not wait to return; one that waits stays blocked until the release.
        try await Task.sleep(for: .milliseconds(100))
        client.events.withLock { $0.append("released") }
        client.release.signal()
        try await waitUntil("cancel to return") { client.events.withLock { $0.contains("cancel returned") } }
        #expect(
            client.events.withLock { $0 } == [
                "response", "body", "finishing", "released", "finished", "cancel returned",
            ])
    }
}

/// A protocol client that notes when each call came.
private final class TimingClient: NSObject, URLProtocolClient, Sendable {
    let calls = Lock<[(call: String, at: ContinuousClock.Instant)]>([])

    private func note(_ call: String) { calls.withLock { $0.append((call, ContinuousClock.now)) } }
    func urlProtocol(_ protocol: URLProtocol, wasRedirectedTo request: URLRequest, redirectResponse: URLResponse) {}
    func urlProtocol(_ protocol: URLProtocol, cachedResponseIsValid cachedResponse: CachedURLResponse) {}
    func urlProtocol(
        _ protocol: URLProtocol, didReceive response: URLResponse, cacheStoragePolicy policy: URLCache.StoragePolicy
    ) { note("response") }
    func urlProtocol(_ protocol: URLProtocol, didLoad data: Data) { note("body") }
    func urlProtocolDidFinishLoading(_ protocol: URLProtocol) { note("finished") }
    func urlProtocol(_ protocol: URLProtocol, didFailWithError error: any Error) {
        note((error as? URLError)?.code == .timedOut ? "timed out" : "failed")
    }
    func urlProtocol(_ protocol: URLProtocol, didReceive challenge: URLAuthenticationChallenge) {}
    func urlProtocol(_ protocol: URLProtocol, didCancel challenge: URLAuthenticationChallenge) {}
}

/// A stream that goes silent fails one `timeoutInterval` after its last delivery, not up to two: the timer used to
/// look only at whether something came since it was set, and a piece just after that restarted a whole interval.
/// A test about a time window: the silence is measured between the client's calls and bounded at 1.5 intervals.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct StubLoadTimeoutTests {
    @Test(arguments: [1, 2, 3])
    func aSilentStream_timesOutOneIntervalAfterItsLastPiece(seconds: Int) async throws {
        let client = TimingClient()
        let url = URL(string: "https://chat.example.com/v1/chat/completions")!
        let urlProtocol = URLProtocol(request: URLRequest(url: url), cachedResponse: nil, client: client)
        // The first piece at once, the second after a tenth of the interval: the old timer, set at the start, saw a
        // delivery when it ran and waited a whole interval more.
        let pieces = [
            BodyPiece(Array("data: 1\n\n".utf8), pauseMs: 0),
            BodyPiece(Array("data: 2\n\n".utf8), pauseMs: seconds * 100),
        ]
        let delivery = EventDelivery(
            pieces: pieces, eventsThrough: [1, 2], ending: .hang, source: (events: [], lastEventID: nil))
        let load = StubLoad(
            answer: StubAnswer(status: .ok, delivery: .events(delivery)), url: url, omitsBody: false,
            timeout: .seconds(seconds), channel: ClientChannel(urlProtocol), onEnd: {})
        try await promptly {
            load.start()
            try await waitUntil("the load to time out") {
                client.calls.withLock { $0.contains { $0.call == "timed out" } }
            }
        }
        let calls = client.calls.withLock { $0 }
        #expect(calls.map(\.call).last == "timed out")
        let silence = try #require(calls.last).at - calls[calls.count - 2].at
        #expect(silence >= .seconds(seconds) - .milliseconds(50), "not before a whole interval of silence")
        #expect(silence < .seconds(seconds) * 1.5, "one interval of silence, not two: \(silence)")
    }
}

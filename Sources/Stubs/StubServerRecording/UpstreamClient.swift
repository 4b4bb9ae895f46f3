import Foundation
import Locking
import StubCore
import StubServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends forwarded requests to the real API with URLSession (so `https://` upstreams work) and turns every
/// outcome into a `ForwardedAnswer`: the answer (decoded when it was compressed), or 502 or 504 with the cause.
struct UpstreamClient: Sendable {
    let upstream: URL
    let timeout: Duration

    /// Request headers not passed on: URLSession negotiates compression itself and decodes the body.
    static let droppedRequestHeaders = ["Accept-Encoding"]
    /// Answer headers that describe the bytes on the upstream's wire, not the decoded body handed on.
    static let droppedAnswerHeaders = ForwardedRequest.hopByHopHeaders + ["Content-Encoding", "Date"]

    /// An upstream's answer, with when its body's bytes arrived (for recording a stream's pauses).
    struct Timed: Sendable {
        var answer: ForwardedAnswer
        var arrivals: [EventStreamFile.Arrival] = []
    }

    func send(_ request: ForwardedRequest) async -> ForwardedAnswer {
        await sendTimed(request).answer
    }

    /// Sends `request`; the whole answer comes back once it has ended (a stream too: it is passed on after its
    /// last byte, with when each piece arrived).
    func sendTimed(_ request: ForwardedRequest) async -> Timed {
        await withCheckedContinuation { continuation in
            send(request) { continuation.resume(returning: $0) }
        }
    }

    /// Sends `request` and calls `completion` once: with the answer, or with 504 when `timeout` passes first (a late
    /// answer is dropped, never waited for). `completion` runs on a thread of URLSession's or Dispatch's, never on
    /// Swift's cooperative pool: a server recording or proxying inside a test process answers on time however busy
    /// the process's own tasks keep that pool.
    func send(_ request: ForwardedRequest, completion: @escaping @Sendable (Timed) -> Void) {
        let base =
            upstream.absoluteString.hasSuffix("/")
            ? String(upstream.absoluteString.dropLast()) : upstream.absoluteString
        guard let url = URL(string: base + request.target) else {
            return completion(
                Timed(
                    answer: .failed(
                        status: 502, message: "cannot build an upstream URL from \(upstream) and \(request.target)")))
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        urlRequest.timeoutInterval = max(1, seconds.rounded(.up))
        for field in request.headers
        where !Self.droppedRequestHeaders.contains(where: { $0.lowercased() == field.name.lowercased() }) {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name)
        }
        if !request.body.isEmpty { urlRequest.httpBody = Data(request.body) }
        let configuration = URLSessionConfiguration.ephemeral
        // URLSession's own timeout is only a backstop: the race below answers 504 on time.
        configuration.timeoutIntervalForRequest = urlRequest.timeoutInterval + 5
        configuration.timeoutIntervalForResource = urlRequest.timeoutInterval + 5
        urlRequest.timeoutInterval += 5
        // The first of the answer and the deadline wins.
        let decided = Once()
        let upstream = upstream
        let collector = Collector { data, response, arrivals, error in
            guard decided.claim() else { return }
            guard let response, error == nil else {
                let cause = error?.localizedDescription ?? "no answer"
                return completion(
                    Timed(answer: .failed(status: 502, message: "upstream \(upstream) cannot be reached: \(cause)")))
            }
            completion(
                Timed(answer: Self.answer(data: data, response: response, upstream: upstream), arrivals: arrivals))
        }
        let session = URLSession(configuration: configuration, delegate: collector, delegateQueue: Self.delegateQueue())
        session.dataTask(with: urlRequest).resume()
        session.finishTasksAndInvalidate()
        let limit = timeout
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Self.nanoseconds(limit))) {
            guard decided.claim() else { return }
            // The 504 first: cancelling the task waits on the session's queue, which a busy process keeps busy.
            completion(
                Timed(
                    answer: .failed(
                        status: 504, message: "upstream \(upstream) did not answer within \(Self.describe(limit))")))
            session.invalidateAndCancel()
        }
    }

    /// The queue the collector hears from: a serial one of its own at a high priority, so a stream's pieces are
    /// timed as they come even when the process's default-priority work (on Linux, Swift's tasks share Dispatch's
    /// default queue with URLSession's default delegate queue) is backed up: in such a run the three events of a
    /// recorded stream, sent 300 ms apart, were once timed 41 ms apart in all.
    private static func delegateQueue() -> OperationQueue {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.underlyingQueue = collectorQueue
        return queue
    }

    /// Kept here: an operation queue does not keep its underlying queue alive.
    private static let collectorQueue = DispatchQueue(label: "UpstreamClient", qos: .userInitiated)

    private static func nanoseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(clamping: seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    /// One task's answer as it arrives: the response, the body's bytes, and when each piece came after the head.
    private final class Collector: NSObject, URLSessionDataDelegate, Sendable {
        private struct State {
            var response: URLResponse?
            var data = Data()
            var headAt = ContinuousClock.now
            var arrivals: [EventStreamFile.Arrival] = []
        }
        private let state = Lock(State())

        /// Called once, when the task completes: the body, the response, when the pieces came, the error if any.
        private let done: @Sendable (Data, URLResponse?, [EventStreamFile.Arrival], (any Error)?) -> Void

        init(done: @escaping @Sendable (Data, URLResponse?, [EventStreamFile.Arrival], (any Error)?) -> Void) {
            self.done = done
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
        ) {
            let now = ContinuousClock.now
            state.withLock {
                $0.response = response
                $0.headAt = now
            }
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            let now = ContinuousClock.now
            state.withLock { state in
                state.data.append(data)
                let elapsed = now - state.headAt
                let milliseconds =
                    Int(elapsed.components.seconds) * 1000
                    + Int(elapsed.components.attoseconds / 1_000_000_000_000_000)
                state.arrivals.append(EventStreamFile.Arrival(end: state.data.count, milliseconds: milliseconds))
            }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            let (data, response, arrivals) = state.withLock { ($0.data, task.response ?? $0.response, $0.arrivals) }
            done(data, response, arrivals, error)
        }
    }

    /// True for the first caller only.
    private final class Once: Sendable {
        private let claimed = Lock(false)

        func claim() -> Bool {
            claimed.withLock { claimed in
                defer { claimed = true }
                return !claimed
            }
        }
    }

    private static func answer(data: Data, response: URLResponse, upstream: URL) -> ForwardedAnswer {
        guard let http = response as? HTTPURLResponse else {
            return .failed(status: 502, message: "upstream \(upstream) answered with something other than HTTP")
        }
        var headers: [HeaderField] = []
        for (name, value) in http.allHeaderFields {
            guard let name = name as? String, let value = value as? String,
                !droppedAnswerHeaders.contains(where: { $0.lowercased() == name.lowercased() })
            else { continue }
            headers.append(HeaderField(name: name, value: value))
        }
        headers.sort { $0.name.lowercased() < $1.name.lowercased() }
        return .response(status: http.statusCode, headers: headers, body: [UInt8](data))
    }

    /// `1 s`, `1.5 s`.
    private static func describe(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let tenths = attoseconds / 100_000_000_000_000_000
        return tenths == 0 ? "\(seconds) s" : "\(seconds).\(tenths) s"
    }
}

import Foundation
import Locking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A chat screen written with care: it shows the answer's tokens as they come and ends on the whole answer, a
/// readable failure, or an offer to try again; never on a spinner, and never with text after a failure.
///
/// - Reads come through a data delegate, cut anywhere; `EventStreamParser` makes events of them.
/// - A token is `choices[0].delta.content`; a token event it cannot read fails the answer ("garbled").
/// - An event sent twice in a row (same id, same data) counts once; tokens with numeric ids are shown in id order.
/// - The answer is finished by a `[DONE]` or a `finish_reason`; an `error` event fails it with its message.
/// - A connection lost, cut cleanly or quiet for `idleTimeout` before the finish is resumed with `Last-Event-ID`
///   (after the server's `retry`, at most a second), twice at most; then it offers to try again. So does a 503
///   or 429; any other status, or a body that is not an event stream, fails it.
/// - Numeric ids with a gap at the end mean a lost token: the answer is offered again rather than shown short.
@MainActor
final class ChatViewModel {
    enum Screen: Equatable, Sendable {
        case idle
        case thinking
        case streaming(String)
        case answered(String)
        case failed(String)
        case retryOffered(String)

        var isFinal: Bool {
            switch self {
            case .answered, .failed, .retryOffered: true
            case .idle, .thinking, .streaming: false
            }
        }
    }

    private(set) var screen = Screen.idle {
        didSet { screens.append(screen) }
    }
    /// Every screen shown, in order.
    private(set) var screens: [Screen] = []

    private let url: URL
    private let configuration: URLSessionConfiguration
    private let idleTimeout: TimeInterval

    init(url: URL, configuration: URLSessionConfiguration, idleTimeout: TimeInterval = 10) {
        // The idle limit on the request and on the session: URLSession on Linux applies the session's, a custom
        // protocol (in process) sees only the request's.
        let configuration = configuration.copy() as! URLSessionConfiguration
        configuration.timeoutIntervalForRequest = idleTimeout
        configuration.urlCache = nil
        (self.url, self.configuration, self.idleTimeout) = (url, configuration, idleTimeout)
    }

    /// What one answer gathered so far, across reconnections.
    private struct Answer {
        var tokens: [(order: Int, arrival: Int, text: String)] = []
        var last: EventStreamParser.Event?
        var numericIDs: [Int] = []
        var finished = false
        var text: String {
            tokens.sorted { ($0.order, $0.arrival) < ($1.order, $1.arrival) }.map(\.text).joined()
        }
        /// A message when the numeric ids seen skip one: a token was lost.
        var gap: String? {
            let ids = Set(numericIDs)
            guard let low = ids.min(), let high = ids.max(), high - low + 1 != ids.count else { return nil }
            return "Part of the answer was lost. Try again."
        }
    }

    private struct Chunk: Decodable {
        struct Choice: Decodable {
            struct Delta: Decodable { var content: String? }
            var delta: Delta?
            var finishReason: String?

            enum CodingKeys: String, CodingKey {
                case delta
                case finishReason = "finish_reason"
            }
        }
        var choices: [Choice]?
    }

    private struct ErrorEvent: Decodable {
        struct Body: Decodable { var message: String? }
        var error: Body?
    }

    private enum Ending: Error {
        case failed(String)
        case retry(String)
    }

    /// Asks for an answer and shows it as it comes.
    func ask(_ prompt: String) async {
        screen = .thinking
        var answer = Answer()
        var parser = EventStreamParser()
        do {
            for attempt in 0..<3 {
                if attempt > 0 {
                    guard parser.lastEventID != nil else { break }
                    try await Task.sleep(for: .milliseconds(min(parser.retryMs ?? 100, 1_000)))
                }
                if try await receive(prompt, &answer, &parser) { return show(answer) }
            }
            if let gap = answer.gap { throw Ending.retry(gap) }
            throw Ending.retry("The answer was cut off. Try again.")
        } catch Ending.failed(let message) {
            screen = .failed(message)
        } catch Ending.retry(let message) {
            screen = .retryOffered(message)
        } catch {
            screen = .retryOffered("The answer was cut off. Try again.")
        }
    }

    private func show(_ answer: Answer) {
        if let gap = answer.gap {
            screen = .retryOffered(gap)
        } else if answer.text.isEmpty {
            screen = .failed("The assistant sent an empty answer.")
        } else {
            screen = .answered(answer.text)
        }
    }

    /// One connection: true once the answer is finished; false when it ended first (to resume).
    /// - Throws: `Ending` for an answer that cannot go on.
    private func receive(_ prompt: String, _ answer: inout Answer, _ parser: inout EventStreamParser) async throws
        -> Bool
    {
        var request = URLRequest(url: url, timeoutInterval: idleTimeout)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
        request.setValue(parser.lastEventID, forHTTPHeaderField: "Last-Event-ID")
        request.httpBody = try JSONSerialization.data(withJSONObject: ["stream": true, "prompt": prompt])
        let arrivals = ByteStream.open(request, configuration: configuration)
        do {
            for try await arrival in arrivals {
                switch arrival {
                case .response(let status, let type):
                    if status == 503 || status == 429 { throw Ending.retry("The assistant is busy. Try again.") }
                    guard status == 200, type?.lowercased().hasPrefix("text/event-stream") == true else {
                        throw Ending.failed("The assistant could not answer (status \(status)).")
                    }
                case .bytes(let bytes):
                    for event in parser.feed(bytes) {
                        if try take(event, &answer) { return true }
                    }
                }
            }
        } catch let ending as Ending {
            throw ending
        } catch {
            return answer.finished
        }
        return answer.finished
    }

    /// Adds `event` to the answer; true when it finishes the answer.
    private func take(_ event: EventStreamParser.Event, _ answer: inout Answer) throws -> Bool {
        if let id = event.id {
            // The same event again, right after itself; equal events apart are two (ids need not be unique).
            guard answer.last != event else { return false }
            if let number = Int(id) { answer.numericIDs.append(number) }
        }
        answer.last = event
        if event.data == "[DONE]" || event.type == "done" {
            answer.finished = true
            return true
        }
        switch event.type {
        case "error":
            let message = (try? JSONDecoder().decode(ErrorEvent.self, from: Data(event.data.utf8)))?.error?.message
            throw Ending.failed(message ?? "The assistant could not answer.")
        case "token", "message":
            guard let chunk = try? JSONDecoder().decode(Chunk.self, from: Data(event.data.utf8)) else {
                throw Ending.failed("The answer arrived garbled.")
            }
            let choice = chunk.choices?.first
            if let content = choice?.delta?.content, !content.isEmpty {
                answer.tokens.append(
                    (order: event.id.flatMap { Int($0) } ?? Int.max, arrival: answer.tokens.count, text: content))
                screen = .streaming(answer.text)
            }
            if choice?.finishReason != nil { answer.finished = true }
            return false
        default:
            return false  // A type this screen does not know (a ping): nothing to show.
        }
    }
}

/// A data task's answer as it arrives: the status and type, then each read's bytes; the task's error ends it.
enum ByteStream {
    enum Arrival: Sendable {
        case response(status: Int, type: String?)
        case bytes([UInt8])
    }

    static func open(_ request: URLRequest, configuration: URLSessionConfiguration)
        -> AsyncThrowingStream<Arrival, any Error>
    {
        AsyncThrowingStream { continuation in
            let reader = Reader(continuation)
            let session = URLSession(configuration: configuration, delegate: reader, delegateQueue: nil)
            let task = session.dataTask(with: request)
            // No `cancel()`: FoundationNetworking traps when a task is cancelled as it leaves its session's registry
            // (swift-corelibs-foundation issue 3296; it did here, in a sweep). A task left behind ends by itself:
            // the stream ends, or the idle limit ends it.
            continuation.onTermination = { _ in session.finishTasksAndInvalidate() }
            task.resume()
        }
    }

    private final class Reader: NSObject, URLSessionDataDelegate, Sendable {
        private let continuation: AsyncThrowingStream<Arrival, any Error>.Continuation

        init(_ continuation: AsyncThrowingStream<Arrival, any Error>.Continuation) {
            self.continuation = continuation
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
        ) {
            let http = response as? HTTPURLResponse
            continuation.yield(
                .response(status: http?.statusCode ?? 0, type: http?.value(forHTTPHeaderField: "Content-Type")))
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            continuation.yield(.bytes([UInt8](data)))
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            continuation.finish(throwing: error)
        }
    }
}

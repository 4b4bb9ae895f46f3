import Dispatch
import Foundation
import HTTPMessages
import Locking
import StubCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One request's answer on its way to URLSession, at the times the socket server would send it: the response
/// after the answer's delay, the body's pieces after their pauses, or the fault in URLSession's words.
///
/// Each step schedules the next on a timer; no thread waits. A request that hears nothing for its
/// `timeoutInterval` ends with `URLError(.timedOut)`: URLSession does not time out a custom protocol itself.
final class StubLoad: Sendable {
    private let answer: StubAnswer
    private let url: URL
    /// Whether the body is left out (a `HEAD` request), its length still announced.
    private let omitsBody: Bool
    private let timeout: Duration
    private let channel: ClientChannel
    private let queue = DispatchQueue(label: "StubServerInProcess.StubLoad")
    private let progress = Lock(Progress())
    /// Called once the load has ended, however it ended.
    private let onEnd: @Sendable () -> Void
    /// For Server-Sent Events: called once the load has ended with how many pieces reached the client.
    private let onStreamEnd: (@Sendable (Int) -> Void)?

    private struct Progress {
        var ended = false
        /// When the last delivery (or the start) was: the timeout runs from there.
        var lastDelivery = DispatchTime.now()
        /// The body so far, for platforms whose URLSession keeps only the last piece (see `deliver`).
        var body: [UInt8] = []
        /// Pieces of a paced body or stream handed to the client.
        var piecesSent = 0
        /// Whether the stream's end was reported (`onStreamEnd`): when the load ends, or, for a stream that hangs,
        /// once its pieces are out, as the socket server reports it.
        var streamEndReported = false
    }

    init(
        answer: StubAnswer, url: URL, omitsBody: Bool, timeout: Duration, channel: ClientChannel,
        onStreamEnd: (@Sendable (Int) -> Void)? = nil, onEnd: @escaping @Sendable () -> Void
    ) {
        self.onStreamEnd = onStreamEnd
        self.answer = answer
        self.url = url
        self.omitsBody = omitsBody
        self.timeout = timeout
        self.channel = channel
        self.onEnd = onEnd
    }

    /// Starts the answer's schedule.
    func start() {
        armTimeout()
        after(milliseconds: answer.delayMs) { $0.beginAnswer() }
    }

    /// Stops every step: the protocol stopped loading, so nothing more reaches the client. Waits for a call to the
    /// client under way, also one that ends the load: swift-corelibs-foundation reports the cancellation itself
    /// right after `stopLoading`, and a completion still running then would be resumed twice.
    func cancel() {
        _ = endOnce()
        channel.close()
    }

    /// Ends the request with `code`, unless it ended already (the server stopped, or the timeout ran out).
    func fail(_ code: URLError.Code, _ message: String) {
        guard endOnce() else { return }
        let error = URLError(code, userInfo: [NSLocalizedDescriptionKey: message, NSURLErrorFailingURLErrorKey: url])
        channel.send(ending: true) { urlProtocol, client in client.urlProtocol(urlProtocol, didFailWithError: error) }
    }

    private func beginAnswer() {
        switch answer.delivery {
        case .whole:
            guard sendResponse(), sendBody(answer.body, last: true) else { return }
            finish()
        case .paced(let pieces, let chunked):
            guard sendResponse(contentLength: !chunked) else { return }
            sendPieces(pieces[...])
        case .events(let events):
            guard sendResponse(contentLength: false) else { return }
            sendPieces(events.pieces[...], ending: events.ending)
        case .fault(.drop), .fault(.reset):
            fail(.networkConnectionLost, "the stub dropped the connection (fault \(answer.faultName))")
        case .fault(.truncate):
            guard sendResponse(), sendBody(Array(answer.body.prefix(answer.body.count / 2)), last: true) else { return }
            fail(.networkConnectionLost, "the stub closed the connection mid-body (fault truncate)")
        case .fault(.malformed):
            fail(.badServerResponse, "the stub sent an answer that is not HTTP (fault malformed)")
        case .fault(.hang):
            break  // The timeout ends it, or the task's cancellation.
        case .webSocket:
            // `InProcessStubs` answers a WebSocket stub with 501 before a load starts.
            fail(.unsupportedURL, "a WebSocket cannot be answered in process")
        }
    }

    /// Sends each piece after its pause, then ends as `ending` says (a broken stream in URLSession's words).
    private func sendPieces(_ pieces: ArraySlice<BodyPiece>, ending: StreamEnd = .complete) {
        guard let piece = pieces.first else {
            switch ending {
            case .complete: return finish()
            case .hang: return reportStreamEnd()  // The timeout ends the load, or the task's cancellation.
            case .drop, .reset:
                let sent = progress.withLock { $0.piecesSent }
                let how = ending == .drop ? "closed" : "reset"
                return fail(.networkConnectionLost, "the stub \(how) the stream after \(sent) pieces")
            }
        }
        after(milliseconds: piece.pauseMs) { load in
            guard load.sendBody(piece.bytes, last: pieces.count == 1) else { return }
            load.progress.withLock { $0.piecesSent += 1 }
            load.sendPieces(pieces.dropFirst(), ending: ending)
        }
    }

    /// Sends the response head; false when the load has ended.
    private func sendResponse(contentLength: Bool = true) -> Bool {
        var fields: [String: String] = [:]
        for (name, value) in answer.headers {
            let key = fields.keys.first { $0.lowercased() == name.lowercased() } ?? name
            fields[key] = fields[key].map { "\($0), \(value)" } ?? value
        }
        if contentLength, answer.status.allowsContent { fields["Content-Length"] = String(answer.body.count) }
        let response = HTTPURLResponse(
            url: url, statusCode: answer.status.code, httpVersion: "HTTP/1.1", headerFields: fields)!
        return delivered {
            $0.send { urlProtocol, client in
                client.urlProtocol(urlProtocol, didReceive: response, cacheStoragePolicy: .notAllowed)
            }
        }
    }

    /// Sends body bytes; false when the load has ended.
    ///
    /// swift-corelibs-foundation keeps only the last `didLoad` of a task made with a completion handler or
    /// `data(for:)` (`URLSessionTask.swift`, `_ProtocolClient.urlProtocol(_:didLoad:)` stores the data under
    /// `.responseData`, replacing what was there): there the body goes in one piece, with its last one.
    private func sendBody(_ bytes: [UInt8], last: Bool) -> Bool {
        guard !omitsBody, answer.status.allowsContent else { return delivered { _ in } }
        var data = Data(bytes)
        #if canImport(FoundationNetworking)
            let whole: [UInt8]? = progress.withLock { progress in
                progress.body += bytes
                return last ? progress.body : nil
            }
            guard let whole else { return delivered { _ in } }
            data = Data(whole)
        #endif
        let piece = data
        return delivered { channel in
            if !piece.isEmpty {
                channel.send { urlProtocol, client in client.urlProtocol(urlProtocol, didLoad: piece) }
            }
        }
    }

    private func finish() {
        guard endOnce() else { return }
        channel.send(ending: true) { urlProtocol, client in client.urlProtocolDidFinishLoading(urlProtocol) }
    }

    /// Runs `send` with the channel unless the load has ended, and notes when; false when it had ended.
    private func delivered(_ send: (ClientChannel) -> Void) -> Bool {
        let open = progress.withLock { progress in
            if !progress.ended { progress.lastDelivery = .now() }
            return !progress.ended
        }
        if open { send(channel) }
        return open
    }

    /// Ends the load with `URLError(.timedOut)` once a whole `timeout` passes without a delivery: one timer at a time,
    /// set for `timeout` after the last delivery it finds when it runs.
    private func armTimeout(after deadline: DispatchTime? = nil) {
        let (seconds, attoseconds) = timeout.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        let due = deadline ?? progress.withLock { $0.lastDelivery } + .nanoseconds(nanoseconds)
        // Weakly: a load that ended is released at once, not when its timer would have run out.
        queue.asyncAfter(deadline: due) { [weak self] in
            guard let self else { return }
            let (ended, last) = progress.withLock { ($0.ended, $0.lastDelivery) }
            if ended { return }
            let next = last + .nanoseconds(nanoseconds)
            if next > .now() { return armTimeout(after: next) }
            fail(.timedOut, "the request timed out: the stub sent nothing for \(timeout)")
        }
    }

    /// True the first time only: the caller ends the load.
    private func endOnce() -> Bool {
        let first = progress.withLock { progress in
            defer { progress.ended = true }
            return !progress.ended
        }
        if first {
            reportStreamEnd()
            onEnd()
        }
        return first
    }

    /// Reports how many pieces went out, once.
    private func reportStreamEnd() {
        let sent = progress.withLock { progress -> Int? in
            defer { progress.streamEndReported = true }
            return progress.streamEndReported ? nil : progress.piecesSent
        }
        if let sent { onStreamEnd?(sent) }
    }

    private func after(milliseconds: Int, _ step: @escaping @Sendable (StubLoad) -> Void) {
        let run: @Sendable () -> Void = { [self] in
            guard !progress.withLock({ $0.ended }) else { return }
            step(self)
        }
        if milliseconds <= 0 {
            queue.async(execute: run)
        } else {
            queue.asyncAfter(deadline: .now() + .milliseconds(milliseconds), execute: run)
        }
    }
}

extension StubAnswer {
    fileprivate var faultName: String {
        if case .fault(let fault) = delivery { return fault.rawValue }
        return "none"
    }
}

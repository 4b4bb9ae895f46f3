import HTTPEngine
import HTTPMessages
import StubCore

extension StubServer: HTTPResponder {
    /// Answers on the loop's thread: the admin API, one decision of the catalog, or later, from the forwarder.
    package func respond(to request: HTTPRequest, promise: ReplyPromise) -> Answer {
        // Compared as bytes: a combining mark after the slash must not hide an admin path from `hasPrefix`.
        if request.path == "/__stub" || request.path.utf8.starts(with: "/__stub/".utf8) {
            let response = adminResponse(to: request)
            return .now(
                Reply(
                    .respond(response),
                    onFinish: logger(request, stub: nil, variant: nil, status: response.status.code, fault: nil)))
        }
        let forwarder = configuration.forwarder
        let forwarding: Forwarding =
            switch forwarder {
            case nil: .none
            case let forwarder?: forwarder.forwardsMatchedRequests ? .all : .unmatched
            }
        let (decision, generation) = runtime.state.withLock { state in
            (state.decide(request, forwarding: forwarding), state.catalogGeneration)
        }
        let file =
            BodyFiles.wants(decision) ? bodyFiles.withLock { $0.file(for: decision, generation: generation) } : nil
        if case .forward = decision.outcome, let forwarder {
            forward(request, to: forwarder, promise: promise)
            return .later
        }
        var reply = reply(for: decision, to: request, file: file)
        var status = decision.status
        if decision.status == 101, case .respond(let refusal) = reply.action {
            // A handshake the WebSocket stub refused.
            status = refusal.status.code
            if let entry = decision.journalID {
                runtime.state.withLock {
                    $0.journal.update(entry: entry) { entry in
                        entry.status = refusal.status.code
                        entry.stream = nil
                    }
                }
            }
        }
        reply.onFinish = logger(
            request, stub: decision.stubName, variant: decision.variantName, status: status,
            fault: decision.fault, violations: decision.contractViolations)
        return .now(reply)
    }

    /// Hands `request` to `forwarder`; its answer is journaled, reloads the catalog when the forwarder wrote
    /// fixtures, and is sent through `promise`.
    private func forward(_ request: HTTPRequest, to forwarder: any RequestForwarder, promise: ReplyPromise) {
        let hopByHop = ForwardedRequest.hopByHopHeaders
        let forwarded = ForwardedRequest(
            method: request.method, target: request.target, path: request.path,
            query: request.query.map { JournalEntry.QueryItem(name: $0.name, value: $0.value) },
            headers: request.headers.compactMap { field in
                hopByHop.contains { $0.caseInsensitiveEquals(field.name) }
                    ? nil : HeaderField(name: field.name, value: field.value)
            },
            body: request.body)
        let label = forwarder.label
        forwarder.forward(forwarded) { [self] answer in
            let response: HTTPResponse
            switch answer {
            case .response(let status, let headers, let body):
                var fields = HTTPHeaders(headers.map { ($0.name, $0.value) })
                fields.set("X-Stub-Forwarded", label)
                response = HTTPResponse(status: HTTPStatus(status), headers: fields, body: body)
                if forwarder.changesFixtures, catalog.root != nil { _ = try? reload() }
            case .failed(let status, let message):
                response = .error(HTTPError(HTTPStatus(status), message))
            }
            runtime.state.withLock {
                _ = $0.journal.record(
                    request, stub: nil, variant: nil, status: response.status.code, fault: nil, forwarded: label)
            }
            promise.fulfil(
                Reply(
                    .respond(response),
                    onFinish: logger(
                        request, stub: nil, variant: nil, status: response.status.code, fault: nil, note: label)))
        }
    }

    /// The engine's reply carrying the core's answer to `decision`.
    /// - Parameter file: the body in a file to send it from, for a large fixed body.
    private func reply(for decision: StubDecision, to request: HTTPRequest, file: FileBody? = nil) -> Reply {
        guard let answer = decision.answer(to: request, baseURL: baseURL(for: request)) else {
            // `.forward` is handled by `forward(_:to:promise:)` before a reply is built.
            return Reply(.respond(.error(HTTPError(.internalServerError, "no forwarder is configured"))))
        }
        var response = HTTPResponse(status: answer.status, headers: answer.headers, body: answer.body)
        response.file = file
        let action: Reply.Action =
            switch answer.delivery {
            case .whole: .respond(response)
            case .paced(let pieces, let chunked):
                .stream(HTTPResponse(status: answer.status, headers: answer.headers), pieces: pieces, chunked: chunked)
            case .events(let events):
                .stream(
                    HTTPResponse(status: answer.status, headers: answer.headers), pieces: events.pieces, chunked: true,
                    end: events.ending)
            case .fault(.drop): .drop
            case .fault(.reset): .reset
            case .fault(.truncate): .truncate(response)
            case .fault(.malformed): .malformed
            case .fault(.hang): .hang
            case .webSocket(let script): webSocketAction(script, for: decision, request: request)
            }
        var reply = Reply(action, delayMs: answer.delayMs)
        if case .events(let events) = answer.delivery, let entry = decision.journalID {
            reply.onStreamEnd = { [runtime] piecesSent in
                runtime.noteEventsSent(events.eventsSent(piecesSent: piecesSent), entry: entry)
            }
        }
        return reply
    }

    /// The log line's reporter, when a log is configured: the status is the one the journal recorded.
    private func logger(
        _ request: HTTPRequest, stub: String?, variant: String?, status: Int?, fault: StubVariant.Fault?,
        note: String? = nil, violations: [String]? = nil
    ) -> (@Sendable (Double) -> Void)? {
        guard let log = configuration.log else { return nil }
        let (method, target) = (request.method, configuration.redaction.redacted(target: request.target))
        return { milliseconds in
            log(
                RequestLog(
                    method: method, target: target, stub: stub, variant: variant, status: status,
                    fault: fault?.rawValue, milliseconds: milliseconds, forwarded: note, contractViolations: violations)
            )
        }
    }

    /// The base URL as the client reached the server: its `Host` header when that is a valid `host[:port]`, else
    /// the listening address.
    private func baseURL(for request: HTTPRequest) -> String {
        if let host = request.headers["Host"], Template.isValidHost(host) { return "http://\(host)" }
        return baseURL.absoluteString
    }
}

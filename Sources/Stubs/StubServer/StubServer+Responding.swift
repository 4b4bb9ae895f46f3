package import HTTPEngine
package import HTTPMessages
import StubAdmin
import StubCore

extension StubServer: HTTPResponder {
    /// Answers on the loop's thread: the admin API, one decision of the catalog, or later, from the forwarder.
    package func respond(to request: Request, promise: ReplyPromise) -> Answer {
        if AdminAPI.serves(request.path) {
            let response = AdminAPI(runtime: runtime, sockets: ServerSockets(server: self), baseURL: baseURL).response(
                to: request)
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
        let exchange = runtime.exchange(request, forwarding: forwarding, baseURL: baseURL(for: request))
        let decision = exchange.decision
        guard let answer = exchange.answer else {
            if let forwarder {
                forward(request, to: forwarder, promise: promise)
                return .later
            }
            // The core forwards only when a forwarder is configured.
            return .now(Reply(.respond(.error(HTTPError(.internalServerError, "no forwarder is configured")))))
        }
        let file =
            BodyFiles.wants(answer)
            ? bodyFiles.withLock { $0.file(for: answer, generation: exchange.catalogGeneration) } : nil
        var reply = reply(delivering: answer, of: decision, to: request, file: file)
        reply.onStreamEnd = exchange.onStreamEnd
        var status = exchange.status
        if decision.status == 101, case .respond(let refusal) = reply.action {
            // A handshake the WebSocket stub refused.
            status = refusal.status.code
            exchange.webSocketRefused(status: refusal.status.code)
        }
        reply.onFinish = logger(
            request, stub: decision.stubName, variant: decision.variantName, status: status,
            fault: exchange.fault, mutation: exchange.mutation, violations: decision.contractViolations)
        return .now(reply)
    }

    /// Hands `request` to `forwarder`; its answer is journaled, reloads the catalog when the forwarder wrote
    /// fixtures, and is sent through `promise`.
    private func forward(_ request: Request, to forwarder: any RequestForwarder, promise: ReplyPromise) {
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
            let response: Response
            switch answer {
            case .response(let status, let headers, let body):
                var fields = HTTPHeaders(headers.map { ($0.name, $0.value) })
                fields.set("X-Stub-Forwarded", label)
                response = Response(status: HTTPStatus(status), headers: fields, body: body)
                if forwarder.changesFixtures, catalog.root != nil { _ = try? reload() }
            case .failed(let status, let message):
                response = .error(HTTPError(HTTPStatus(status), message))
            }
            runtime.recordForwarded(request, status: response.status.code, label: label)
            promise.fulfil(
                Reply(
                    .respond(response),
                    onFinish: logger(
                        request, stub: nil, variant: nil, status: response.status.code, fault: nil, note: label)))
        }
    }

    /// The engine's reply delivering the core's `answer`: the one place stub faults become engine actions.
    /// - Parameter file: the body in a file to send it from, for a large fixed body.
    private func reply(
        delivering answer: StubAnswer, of decision: StubDecision, to request: Request, file: FileBody?
    ) -> Reply {
        var response = Response(status: answer.status, headers: answer.headers, body: answer.body)
        response.file = file
        let action: Reply.Action =
            switch answer.delivery {
            case .whole: .respond(response)
            case .paced(let pieces, let chunked):
                .stream(Response(status: answer.status, headers: answer.headers), pieces: pieces, chunked: chunked)
            case .events(let events):
                .stream(
                    Response(status: answer.status, headers: answer.headers), pieces: events.pieces, chunked: true,
                    end: events.ending)
            case .fault(.drop): .drop
            case .fault(.reset): .reset
            // The head and about half the body.
            case .fault(.truncate): .partial(response, withholding: max(1, answer.body.count - answer.body.count / 2))
            case .fault(.malformed): .raw(Self.notHTTP)
            case .fault(.hang): .silence
            case .webSocket(let script): webSocketAction(script, for: decision, request: request)
            }
        return Reply(action, delayMs: answer.delayMs)
    }

    /// What the `malformed` fault sends: a status line and a header no HTTP parser accepts, and half a body.
    static let notHTTP = Array("HTTP/1.1 2x0 NOT-HTTP\r\nContent-Length: banana\r\n\r\n{\"res".utf8)

    /// The log line's reporter, when a log is configured: the status is the one the journal recorded.
    private func logger(
        _ request: Request, stub: String?, variant: String?, status: Int?, fault: StubVariant.Fault?,
        mutation: String? = nil, note: String? = nil, violations: [String]? = nil
    ) -> (@Sendable (Double) -> Void)? {
        guard let log = configuration.log else { return nil }
        let (method, target) = (request.method, configuration.redaction.redacted(target: request.target))
        return { milliseconds in
            log(
                RequestLog(
                    method: method, target: target, stub: stub, variant: variant, status: status,
                    fault: fault?.rawValue, milliseconds: milliseconds, forwarded: note, contractViolations: violations,
                    mutation: mutation)
            )
        }
    }

    /// The base URL as the client reached the server: its `Host` header when that is a valid `host[:port]`, else
    /// the listening address.
    private func baseURL(for request: Request) -> String {
        if let host = request.headers["Host"], Template.isValidHost(host) { return "http://\(host)" }
        return baseURL.absoluteString
    }
}

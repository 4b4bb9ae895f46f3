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
        let (decision, generation) = state.withLock { state in
            (state.decide(request, forwarding: forwarding), state.catalogGeneration)
        }
        let file =
            BodyFiles.wants(decision) ? bodyFiles.withLock { $0.file(for: decision, generation: generation) } : nil
        if case .forward = decision.outcome, let forwarder {
            forward(request, to: forwarder, promise: promise)
            return .later
        }
        var reply = reply(for: decision, to: request, file: file)
        reply.onFinish = logger(
            request, stub: decision.stubName, variant: decision.variantName, status: decision.status,
            fault: decision.fault)
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
            state.withLock {
                $0.journal.record(
                    request, stub: nil, variant: nil, status: response.status.code, fault: nil, forwarded: label)
            }
            promise.fulfil(
                Reply(
                    .respond(response),
                    onFinish: logger(
                        request, stub: nil, variant: nil, status: response.status.code, fault: nil, note: label)))
        }
    }

    /// - Parameter file: the body in a file to send it from, for a large fixed body.
    private func reply(for decision: StubDecision, to request: HTTPRequest, file: FileBody? = nil) -> Reply {
        switch decision.outcome {
        case .answer(let stub, let variant, let name, let source, let pathParameters):
            var headers = HTTPHeaders([
                ("X-Stub-Name", stub), ("X-Stub-Variant", name), ("X-Stub-Variant-Source", source),
            ])
            if let wanted = decision.fallbackFrom {
                headers.add(
                    "X-Stub-Variant-Fallback",
                    "server-wide variant \(wanted) is not defined for this stub; answered good")
            }
            var body = variant.body
            if variant.template {
                let template = Template(
                    baseURL: baseURL(for: request), request: request, pathParameters: pathParameters)
                for field in variant.headers {
                    // Raw placeholders too: no value may end the field or start another.
                    let value = template.render(field.value, escaping: .header)
                    headers.add(field.name, Template.escape(value, for: .header))
                }
                body = template.render(body, escaping: Template.Escaping(variant.templateKind ?? .text))
            } else {
                for field in variant.headers { headers.add(field.name, field.value) }
            }
            var response = HTTPResponse(status: HTTPStatus(variant.status), headers: headers, body: body)
            response.file = file
            let delayMs = variant.delayMs + variant.firstByteDelayMs
            if variant.fault == nil, let pacing = variant.pacing {
                let (pieces, chunked) = pacing.pieces(of: body)
                var head = response
                head.body = []
                return Reply(.stream(head, pieces: pieces, chunked: chunked), delayMs: delayMs)
            }
            return Reply(Self.action(for: variant.fault, response: response), delayMs: delayMs)
        case .missingVariant(let stub, let name, let source, let available):
            let message =
                "stub \(stub.debugDescription) has no variant \(name.debugDescription) (asked for by \(source)); "
                + "variants: \(available.joined(separator: ", "))"
            let headers = HTTPHeaders([("X-Stub-Name", stub)])
            return Reply(.respond(.error(HTTPError(.badRequest, message), headers: headers)))
        case .methodNotAllowed(let allowed):
            let error = HTTPError(
                .methodNotAllowed,
                "\(request.method) is not stubbed for \(request.path); allowed: \(allowed.joined(separator: ", "))")
            return Reply(.respond(.error(error, headers: HTTPHeaders([("Allow", allowed.joined(separator: ", "))]))))
        case .forward:
            // Handled by `forward(_:to:promise:)` before a reply is built.
            return Reply(.respond(.error(HTTPError(.internalServerError, "no forwarder is configured"))))
        case .unmatched(let closest):
            let body = UnmatchedBody(
                error: "no stub matches \(request.method) \(request.target)", method: request.method,
                path: request.path, query: request.query.map { JournalEntry.QueryItem(name: $0.name, value: $0.value) },
                closest: closest)
            return Reply(.respond(.json(.notFound, body)))
        }
    }

    private static func action(for fault: StubVariant.Fault?, response: HTTPResponse) -> Reply.Action {
        switch fault {
        case nil: .respond(response)
        case .drop: .drop
        case .reset: .reset
        case .truncate: .truncate(response)
        case .malformed: .malformed
        case .hang: .hang
        }
    }

    /// The log line's reporter, when a log is configured: the status is the one the journal recorded.
    private func logger(
        _ request: HTTPRequest, stub: String?, variant: String?, status: Int?, fault: StubVariant.Fault?,
        note: String? = nil
    ) -> (@Sendable (Double) -> Void)? {
        guard let log = configuration.log else { return nil }
        let (method, target) = (request.method, configuration.redaction.redacted(target: request.target))
        return { milliseconds in
            log(
                RequestLog(
                    method: method, target: target, stub: stub, variant: variant, status: status,
                    fault: fault?.rawValue, milliseconds: milliseconds, forwarded: note))
        }
    }

    /// The base URL as the client reached the server: its `Host` header when that is a valid `host[:port]`, else
    /// the listening address.
    private func baseURL(for request: HTTPRequest) -> String {
        if let host = request.headers["Host"], Template.isValidHost(host) { return "http://\(host)" }
        return baseURL.absoluteString
    }

    /// The body of a 404: what was asked and the stubs that came closest, field by field.
    struct UnmatchedBody: Encodable {
        var error: String
        var method: String
        var path: String
        var query: [JournalEntry.QueryItem]
        var closest: [StubMiss]
    }
}

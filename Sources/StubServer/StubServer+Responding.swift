import HTTPEngine

extension StubServer: HTTPResponder {
    /// Answers on the loop's thread: the admin API, or one decision of the catalog.
    package func respond(to request: HTTPRequest, promise: ReplyPromise) -> Answer {
        .now(reply(to: request))
    }

    /// Decides the answer to `request`: the admin API, a stub's variant, 405, or a 404 that explains the misses.
    func reply(to request: HTTPRequest) -> Reply {
        if request.path == "/__stub" || request.path.hasPrefix("/__stub/") {
            let response = adminResponse(to: request)
            return Reply(
                .respond(response),
                onFinish: logger(request, stub: nil, variant: nil, status: response.status.code, fault: nil))
        }
        let decision = state.withLock { $0.decide(request) }
        var reply = reply(for: decision, to: request)
        reply.onFinish = logger(
            request, stub: decision.stubName, variant: decision.variantName, status: decision.status,
            fault: decision.fault)
        return reply
    }

    private func reply(for decision: StubDecision, to request: HTTPRequest) -> Reply {
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
            for field in variant.headers { headers.add(field.name, field.value) }
            var body = variant.body
            if variant.template {
                body = Template.render(
                    body, baseURL: baseURL(for: request), request: request, pathParameters: pathParameters)
            }
            let response = HTTPResponse(status: HTTPStatus(variant.status), headers: headers, body: body)
            return Reply(Self.action(for: variant.fault, response: response), delayMs: variant.delayMs)
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
        _ request: HTTPRequest, stub: String?, variant: String?, status: Int?, fault: StubVariant.Fault?
    ) -> (@Sendable (Double) -> Void)? {
        guard let log = configuration.log else { return nil }
        let (method, target) = (request.method, request.target)
        return { milliseconds in
            log(
                RequestLog(
                    method: method, target: target, stub: stub, variant: variant, status: status,
                    fault: fault?.rawValue, milliseconds: milliseconds))
        }
    }

    /// The base URL as the client reached the server: its `Host` header, else the listening address.
    private func baseURL(for request: HTTPRequest) -> String {
        if let host = request.headers["Host"], !host.isEmpty { return "http://\(host)" }
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

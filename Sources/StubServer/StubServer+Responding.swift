import Foundation

extension StubServer {
    /// How to answer one request: a response, or a fault instead, after a delay.
    struct Reply {
        var response: HTTPResponse
        var stub: String?
        var variant: String?
        var delayMs = 0
        var fault: StubVariant.Fault?
    }

    /// Decides the answer to `request`: the admin API, a stub's variant, 405, or a 404 that explains the misses.
    func reply(to request: HTTPRequest) -> Reply {
        if request.path == "/__stub" || request.path.hasPrefix("/__stub/") {
            return Reply(response: adminResponse(to: request))
        }
        let catalog = state.withLock { $0.catalog }
        switch catalog.match(request) {
        case .matched(let stub, let pathParameters):
            return reply(from: stub, to: request, pathParameters: pathParameters)
        case .methodNotAllowed(let allowed):
            let error = HTTPError(
                .methodNotAllowed,
                "\(request.method) is not stubbed for \(request.path); allowed: \(allowed.joined(separator: ", "))")
            record(request, stub: nil, variant: nil, status: 405)
            return Reply(response: .error(error, headers: HTTPHeaders([("Allow", allowed.joined(separator: ", "))])))
        case .unmatched(let closest):
            record(request, stub: nil, variant: nil, status: 404)
            let body = UnmatchedBody(
                error: "no stub matches \(request.method) \(request.target)", method: request.method,
                path: request.path,
                query: request.query, closest: closest)
            return Reply(response: .json(.notFound, body))
        }
    }

    private func reply(from stub: Stub, to request: HTTPRequest, pathParameters: [String: String]) -> Reply {
        let requested = request.headers["X-Stub-Variant"]
        let (choice, variant) = state.withLock { state in
            let choice = state.chooseVariant(for: stub, requested: requested)
            let variant: StubVariant? =
                switch choice {
                case .chosen(let name, _): stub.variants[name]
                case .fallback: stub.variants["good"]
                case .missing: nil
                }
            let name: String? =
                switch choice {
                case .chosen(let name, _): name
                case .fallback: "good"
                case .missing: nil
                }
            state.journal.record(
                request, stub: stub.name, variant: name,
                status: variant.map { $0.fault == nil ? $0.status : nil } ?? 400,
                fault: variant?.fault?.rawValue)
            return (choice, variant)
        }
        var headers = HTTPHeaders([("X-Stub-Name", stub.name)])
        switch choice {
        case .missing(let name, let source):
            let message =
                "stub \(stub.name.debugDescription) has no variant \(name.debugDescription) (asked for by \(source)); "
                + "variants: \(stub.variantNames.joined(separator: ", "))"
            return Reply(response: .error(HTTPError(.badRequest, message), headers: headers), stub: stub.name)
        case .chosen(let name, let source):
            headers.add("X-Stub-Variant", name)
            headers.add("X-Stub-Variant-Source", source)
        case .fallback(let name):
            headers.add("X-Stub-Variant", "good")
            headers.add("X-Stub-Variant-Source", "fallback")
            headers.add(
                "X-Stub-Variant-Fallback", "server-wide variant \(name) is not defined for this stub; answered good")
        }
        guard let variant else { return Reply(response: HTTPResponse(status: .internalServerError)) }
        for (name, value) in variant.headers { headers.add(name, value) }
        var body = variant.body
        if variant.template {
            body = Template.render(
                body, baseURL: baseURL(for: request), request: request, pathParameters: pathParameters)
        }
        return Reply(
            response: HTTPResponse(status: HTTPStatus(variant.status), headers: headers, body: body), stub: stub.name,
            variant: headers["X-Stub-Variant"], delayMs: variant.delayMs, fault: variant.fault)
    }

    /// The base URL as the client reached the server: its `Host` header, else the listening address.
    private func baseURL(for request: HTTPRequest) -> String {
        if let host = request.headers["Host"], !host.isEmpty { return "http://\(host)" }
        return baseURL.absoluteString
    }

    private func record(_ request: HTTPRequest, stub: String?, variant: String?, status: Int) {
        state.withLock { $0.journal.record(request, stub: stub, variant: variant, status: status, fault: nil) }
    }

    /// The body of a 404: what was asked and the stubs that came closest, field by field.
    struct UnmatchedBody: Encodable {
        var error: String
        var method: String
        var path: String
        var query: [HTTPRequest.QueryItem]
        var closest: [StubMiss]
    }
}

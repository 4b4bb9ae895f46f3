package import HTTPMessages

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What answers one request, as a value any transport carries: the socket server writes it to a connection, an
/// in-process transport hands it to `URLSession`. Built from a `StubDecision` by `StubDecision.answer(to:baseURL:)`.
package struct StubAnswer: Sendable, Equatable {
    package var status: HTTPStatus
    /// The stub's fields and the `X-Stub-*` fields; the transport adds framing (`Content-Length`, `Date`).
    package var headers: HTTPHeaders
    package var body: [UInt8]
    /// Milliseconds to wait before the first byte: the variant's `delayMs` and its network's latency.
    package var delayMs: Int
    package var delivery: Delivery
    /// Where `body` comes from: what a transport may cache.
    package var provenance: Provenance
    /// For a template's answer, the body as rendered for any server at any time (`{{baseURL}}` and `{{now}}` fixed),
    /// rendered when first needed: its mutants are listed once for every server that renders the template
    /// (`Mutations.mutant(_:of:listedAs:)`).
    package var listedAs: ListedAs?

    /// A template's body as rendered for any server, made on demand. Every two are equal: it is the same template
    /// as `body`'s, which answers compare.
    package struct ListedAs: Sendable, Equatable {
        package let render: @Sendable () -> [UInt8]

        package static func == (_: ListedAs, _: ListedAs) -> Bool { true }
    }

    /// Where an answer's body comes from.
    package enum Provenance: Sendable, Hashable {
        /// Variant `variant` of stub `stub`, as the fixture holds it: the same bytes for every answer of one catalog
        /// generation, so a transport may cache them under this identity and the generation.
        case fixture(stub: String, variant: String)
        /// Made for this request (a resource's collection, a template, a mutant, an error, anything computed): a
        /// transport never caches it.
        case made
    }

    /// How the body goes out.
    package enum Delivery: Sendable, Equatable {
        /// Head and body at once.
        case whole
        /// The head, then the body as timed pieces (`Pacing`), chunked or by length.
        case paced([BodyPiece], chunked: Bool)
        /// The head, then Server-Sent Events at their times, ending as the delivery says.
        case events(EventDelivery)
        /// Accept a WebSocket handshake and run the script on the socket.
        case webSocket(WebSocketScript)
        /// The variant's fault instead of a plain answer (for `truncate`, of this answer).
        case fault(StubVariant.Fault)
    }

    package init(
        status: HTTPStatus, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [], delayMs: Int = 0,
        delivery: Delivery = .whole, provenance: Provenance = .made
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.delayMs = delayMs
        self.delivery = delivery
        self.provenance = provenance
    }

    /// A JSON error answer, `{"error": message}`.
    package static func error(_ status: HTTPStatus, _ message: String, headers: HTTPHeaders = HTTPHeaders())
        -> StubAnswer
    {
        var headers = headers
        headers.set("Content-Type", "application/json")
        return StubAnswer(status: status, headers: headers, body: HTTPError(status, message).jsonBody)
    }

    /// A JSON answer made from an `Encodable` value, pretty-printed with sorted keys.
    package static func json(_ status: HTTPStatus, _ value: some Encodable, headers: HTTPHeaders = HTTPHeaders())
        -> StubAnswer
    {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        var headers = headers
        headers.set("Content-Type", "application/json")
        var body = (try? encoder.encode(value)).map { [UInt8]($0) } ?? []
        body.append(0x0A)
        return StubAnswer(status: status, headers: headers, body: body)
    }
}

extension StubDecision {
    /// The answer this decision gives `request`; nil for `.forward`, which the transport's forwarder answers.
    /// - Parameter baseURL: the server's URL as the client reached it, for templates' `{{baseURL}}`; only a
    ///   template asks for it (reading and checking `Host` on every request cost the server 10% of its rate).
    /// - Parameter forMutation: whether a mutant of the answer is asked for: a template's answer then also carries
    ///   `listedAs`.
    package func answer(
        to request: Request, baseURL: @autoclosure () -> String, forMutation: Bool = false
    ) -> StubAnswer? {
        switch outcome {
        case .answer(let stub, let variant, let name, let source, let pathParameters):
            var headers = stubHeaders(stub: stub, variant: name, source: source)
            var body = variant.body
            var listedAs: StubAnswer.ListedAs?
            if variant.template {
                let template = Template(baseURL: baseURL(), request: request, pathParameters: pathParameters)
                for field in variant.headers {
                    // Raw placeholders too: no value may end the field or start another.
                    let value = template.render(field.value, escaping: .header)
                    headers.add(field.name, Template.escape(value, for: .header))
                }
                let escaping = Template.Escaping(variant.templateKind ?? .text)
                body = template.render(body, escaping: escaping)
                if forMutation {
                    listedAs = StubAnswer.ListedAs { [body = variant.body] in
                        let anyServer = Template(
                            baseURL: "http://stub.invalid", request: request, pathParameters: pathParameters,
                            now: Date(timeIntervalSince1970: 0))
                        return anyServer.render(body, escaping: escaping)
                    }
                }
            } else {
                for field in variant.headers { headers.add(field.name, field.value) }
            }
            var answer = delivering(
                variant, status: variant.status, headers: headers, body: body,
                provenance: variant.template ? .made : .fixture(stub: stub, variant: name), to: request)
            answer.listedAs = listedAs
            return answer
        case .resource(let stub, let variant, let source, let result):
            var headers = stubHeaders(stub: stub, variant: "good", source: source)
            for field in variant.headers
            where !field.name.caseInsensitiveEquals("Content-Type") && !field.name.caseInsensitiveEquals("Location") {
                headers.add(field.name, field.value)
            }
            if result.body != nil { headers.add("Content-Type", "application/json") }
            if let location = result.location { headers.add("Location", location) }
            return delivering(
                variant, status: result.status, headers: headers,
                body: result.body.map { Array($0.jsonText.utf8) } ?? [],
                provenance: .made, to: request)
        case .missingVariant(let stub, let name, let source, let available):
            let message =
                "stub \(stub.debugDescription) has no variant \(name.debugDescription) (asked for by \(source.asker)); "
                + "variants: \(available.joined(separator: ", "))"
            return .error(.badRequest, message, headers: HTTPHeaders([("X-Stub-Name", stub)]))
        case .methodNotAllowed(let allowed):
            return .error(
                .methodNotAllowed,
                "\(request.method) is not stubbed for \(request.path); allowed: \(allowed.joined(separator: ", "))",
                headers: HTTPHeaders([("Allow", allowed.joined(separator: ", "))]))
        case .unmatched(let closest):
            let body = UnmatchedBody(
                error: "no stub matches \(request.method) \(request.target)", method: request.method,
                path: request.path, query: request.query.map { JournalEntry.QueryItem(name: $0.name, value: $0.value) },
                closest: closest)
            return .json(.notFound, body)
        case .forward:
            return nil
        }
    }

    /// The `X-Stub-*` fields of an answer by a stub.
    private func stubHeaders(stub: String, variant: String, source: VariantSource) -> HTTPHeaders {
        var headers = HTTPHeaders([
            ("X-Stub-Name", stub), ("X-Stub-Variant", variant), ("X-Stub-Variant-Source", source.rawValue),
        ])
        if let wanted = fallbackFrom {
            headers.add(
                "X-Stub-Variant-Fallback", "server-wide variant \(wanted) is not defined for this stub; answered good")
        }
        return headers
    }

    /// The answer `variant` gives with this status, headers and body: delayed, paced, streamed or broken as it says.
    private func delivering(
        _ variant: StubVariant, status: Int, headers: HTTPHeaders, body: [UInt8], provenance: StubAnswer.Provenance,
        to request: Request
    ) -> StubAnswer {
        var answer = StubAnswer(
            status: HTTPStatus(status), headers: headers, body: body,
            delayMs: variant.delayMs + variant.firstByteDelayMs, provenance: provenance)
        if stream == .webSocket, let script = variant.script {
            answer.delivery = .webSocket(script)
        } else if self.stream == .events, let stream = variant.events {
            var rate: Int?
            if case .throttle(let bytesPerSecond) = variant.pacing { rate = bytesPerSecond }
            answer.delivery = .events(
                stream.delivery(
                    lastEventID: request.headers["Last-Event-ID"], fault: variant.fault, bytesPerSecond: rate))
        } else if let fault = variant.fault {
            answer.delivery = .fault(fault)
        } else if let pacing = variant.pacing {
            let (pieces, chunked) = pacing.pieces(of: body)
            answer.delivery = .paced(pieces, chunked: chunked)
        }
        return answer
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

package import HTTPEngine
package import HTTPMessages
import JSONModel
package import StubCore

#if canImport(FoundationEssentials)
    package import FoundationEssentials
#else
    package import Foundation
#endif

/// The admin API under `/__stub/`: HTTP routes over the stubs' one control (`LocalStubControl`), mounted by the
/// socket server on its own port and by in-process stubs on a loopback port of their own (`AdminServer`), and
/// spoken by `RemoteStubs`, by the contract written once in `AdminEndpoint` and `AdminBody`; the DocC article
/// "The admin API" lists the endpoints.
package struct AdminAPI: Sendable {
    /// The stubs the routes steer.
    let host: RuntimeControl
    /// The socket server's connections and WebSockets; nil in process.
    let sockets: (any AdminSockets)?
    /// Where the API is reached, for the index's pointer to the control page.
    let baseURL: URL

    package init(runtime: StubRuntime, sockets: (any AdminSockets)?, baseURL: URL) {
        host = RuntimeControl(runtime: runtime)
        self.sockets = sockets
        self.baseURL = baseURL
    }

    /// Whether `path` is the admin API's: compared as bytes, so that a combining mark after the slash cannot hide
    /// an admin path from `hasPrefix`.
    package static func serves(_ path: String) -> Bool {
        path == "/__stub" || path.utf8.starts(with: "/__stub/".utf8)
    }

    /// Answers `request`, a path under `/__stub/`, by the route table `routes`.
    package func response(to request: Request) -> Response {
        let parts = request.path.utf8.split(separator: UInt8(ascii: "/")).dropFirst().map { String(Substring($0)) }
        let method = request.method == "HEAD" ? "GET" : request.method
        let onPath = Self.routes.filter { $0.endpoint.matches(parts) }
        if let route = onPath.first(where: { $0.endpoint.methods.contains(method) }) {
            return route.handle(self, request, parts)
        }
        let known = AdminEndpoint.allCases.filter {
            $0.path.split(separator: "/").count == parts.count + 1 || parts.isEmpty
        }
        return .json(
            onPath.isEmpty ? .notFound : .methodNotAllowed,
            AdminBody.Failure(
                error: "\(request.method) \(request.path) is not an admin endpoint",
                endpoints: (known.isEmpty ? AdminEndpoint.allCases : known).map(\.route)))
    }

    /// What answers an endpoint: given the API, the request and its path's segments after `/__stub`.
    private typealias Handler = @Sendable (AdminAPI, Request, _ parts: [String]) -> Response

    /// Every endpoint with what answers it, in the order the help lists them.
    private static let routes: [(endpoint: AdminEndpoint, handle: Handler)] = AdminEndpoint.allCases.map {
        ($0, handler(for: $0))
    }

    /// What answers `endpoint`: a switch, so that an endpoint of the contract without an answer does not build.
    private static func handler(for endpoint: AdminEndpoint) -> Handler {
        switch endpoint {
        case .index:
            return { api, request, _ in
                // A browser gets the control page; anything else the list of endpoints.
                if request.headers["Accept"]?.contains("text/html") == true {
                    return ControlPage.response(ControlPage.html, type: "text/html; charset=utf-8")
                }
                return .json(
                    .ok,
                    AdminBody.Index(
                        page: "open \(api.baseURL.absoluteString)/__stub/ in a browser",
                        endpoints: AdminEndpoint.allCases.map(\.route)))
            }
        case .controlScript:
            return { _, _, _ in
                ControlPage.response(ControlPage.script, type: "text/javascript; charset=utf-8")
            }
        case .controlStyle:
            return { _, _, _ in
                ControlPage.response(ControlPage.css, type: "text/css; charset=utf-8")
            }
        case .icon:
            return { _, _, _ in
                ControlPage.response(ControlPage.icon, type: "image/svg+xml")
            }
        case .health:
            return { api, _, _ in
                let catalog = api.host.catalog
                return .json(
                    .ok,
                    AdminBody.Health(
                        status: "ok", stubs: catalog.stubs.count, fixtures: catalog.root?.path,
                        seed: String(api.host.runtime.seed), chaos: api.host.runtime.read(\.chaos),
                        lastReload: api.host.lastReload,
                        stalledConnections: api.sockets?.counters.stalledConnections,
                        acceptPauses: api.sockets?.counters.acceptPauses))
            }
        case .stubs:
            return { api, _, _ in .json(.ok, api.stubList()) }
        case .setVariant:
            return { api, request, _ in
                api.respond { () throws(StubServerError) in
                    try api.host.setVariant(try api.variantName(in: request))
                    return .json(.ok, api.stubList())
                }
            }
        case .clearVariant:
            return { api, _, _ in
                api.respond { () throws(StubServerError) in
                    try api.host.setVariant(nil)
                    return .json(.ok, api.stubList())
                }
            }
        case .setStubVariant:
            return { api, request, parts in
                api.respond { () throws(StubServerError) in
                    try api.host.setVariant(try api.variantName(in: request), forStub: parts[1])
                    return .json(.ok, api.stubList())
                }
            }
        case .clearStubVariant:
            return { api, _, parts in
                api.respond { () throws(StubServerError) in
                    try api.host.setVariant(nil, forStub: parts[1])
                    return .json(.ok, api.stubList())
                }
            }
        case .setStubMutation:
            return { api, request, parts in
                api.respond { () throws(StubServerError) in
                    try api.host.setMutation(try api.namedValue("mutation", in: request), forStub: parts[1])
                    return .json(.ok, api.stubList())
                }
            }
        case .stubMutations:
            return { api, request, parts in
                api.respond { () throws(StubServerError) in
                    let variant =
                        request.query.first { $0.name == "variant" }?.value
                        ?? api.host.variant(forStub: parts[1]) ?? "good"
                    let mutants = try api.host.catalog.existingVariant(variant, ofStub: parts[1]).mutants
                    return .json(
                        .ok,
                        mutants.map {
                            AdminBody.MutantItem(
                                id: $0.id, description: $0.description, aliases: $0.aliases.isEmpty ? nil : $0.aliases)
                        })
                }
            }
        case .clearStubMutation:
            return { api, _, parts in
                api.respond { () throws(StubServerError) in
                    try api.host.setMutation(nil, forStub: parts[1])
                    return .json(.ok, api.stubList())
                }
            }
        case .journal:
            return { api, request, _ in
                var entries = api.host.journal(api.journalQuery(request))
                // `after=ID`: only entries newer than one already seen, for a page that polls.
                if let after = request.queryValue("after").flatMap(Int.init) { entries.removeAll { $0.id <= after } }
                return .json(.ok, AdminBody.JournalPage(entries: entries))
            }
        case .clearJournal:
            return { api, _, _ in
                api.host.clearJournal()
                return .json(.ok, AdminBody.Count(0))
            }
        case .journalCount:
            return { api, request, _ in
                .json(.ok, AdminBody.Count(api.host.requestCount(api.journalQuery(request))))
            }
        case .unmatched:
            return { api, _, _ in
                // Requests no stub matched, and requests that broke their stub's API contract: what strict tests fail on.
                let entries = api.host.journal(JournalQuery()).filter { entry in
                    (entry.stub == nil && entry.forwarded == nil) || !(entry.contractViolations ?? []).isEmpty
                }
                return .json(.ok, AdminBody.JournalPage(entries: entries))
            }
        case .resourceItems:
            return { api, _, parts in
                api.respond { () throws(StubServerError) in
                    let items = try api.host.items(ofResource: parts[1])
                    return Response(
                        status: .ok, headers: HTTPHeaders([("Content-Type", "application/json")]), body: [UInt8](items))
                }
            }
        case .setResourceItems:
            return { api, request, parts in
                api.respond { () throws(StubServerError) in
                    try api.host.setItems(Data(request.body), ofResource: parts[1])
                    return Response(
                        status: .ok, headers: HTTPHeaders([("Content-Type", "application/json")]),
                        body: [UInt8](try api.host.items(ofResource: parts[1])))
                }
            }
        case .scenarios:
            return { api, _, _ in .json(.ok, api.scenarioList()) }
        case .setScenarioState:
            return { api, request, parts in
                api.respond { () throws(StubServerError) in
                    try api.host.setScenario(parts[1], to: try api.namedValue("state", in: request))
                    return .json(.ok, api.scenarioList())
                }
            }
        case .resetScenarios:
            return { api, _, _ in
                api.respond { () throws(StubServerError) in
                    try api.host.resetScenario()
                    return .json(.ok, api.scenarioList())
                }
            }
        case .resetScenario:
            return { api, _, parts in
                api.respond { () throws(StubServerError) in
                    try api.host.resetScenario(parts[1])
                    return .json(.ok, api.scenarioList())
                }
            }
        case .webSockets:
            return { api, _, _ in
                .json(.ok, api.sockets?.webSocketCounts ?? [:])
            }
        case .webSocketSend:
            return { api, request, parts in
                api.webSocketCommand(stub: parts[1]) { stub throws(HTTPError) in
                    api.sockets?.send(try AdminAPI.webSocketMessage(in: request), stub: stub) ?? 0
                }
            }
        case .webSocketClose:
            return { api, request, parts in
                api.webSocketCommand(stub: parts[1]) { stub throws(HTTPError) in
                    let fields = (try? JSONDecoder().decode(JSONValue.self, from: Data(request.body))) ?? .object([:])
                    guard case .object(let options) = fields else {
                        throw HTTPError(.badRequest, "expected a JSON object")
                    }
                    var code: UInt16 = 1000
                    if case .number(let number)? = options["code"] {
                        guard let valid = UInt16(exactly: number), WebSocketCloseCode.maySend(Int(valid)) else {
                            throw HTTPError(
                                .badRequest,
                                "code must be a close code that may be sent: 1000-1003, 1007-1014, 3000-4999")
                        }
                        code = valid
                    }
                    var reason = ""
                    if case .string(let text)? = options["reason"] { reason = text }
                    do {
                        return try api.sockets?.close(stub: stub, code: code, reason: reason) ?? 0
                    } catch {
                        throw HTTPError(.badRequest, "\(error)")
                    }
                }
            }
        // The test the answers are for, in the coverage records (a test driving these stubs from another process).
        case .setCoverageTest:
            return { api, request, _ in
                api.respond { () throws(StubServerError) in
                    let test = try api.namedValue("test", in: request)
                    api.host.runtime.recordCoverage(as: test)
                    return .json(.ok, ["test": test])
                }
            }
        case .clearCoverageTest:
            return { api, _, _ in
                api.host.runtime.recordCoverage(as: nil)
                return .json(.ok, [String: String]())
            }
        case .reset:
            return { api, _, _ in
                api.host.reset()
                return .json(.ok, api.stubList())
            }
        case .reload:
            return { api, _, _ in
                do {
                    let report = try api.host.reload()
                    return .json(
                        .ok,
                        AdminBody.Health(
                            status: "reloaded", stubs: report.stubs, fixtures: api.host.catalog.root?.path,
                            lastReload: report))
                } catch let error as CatalogError {
                    return .json(
                        .unprocessableContent,
                        AdminBody.ReloadFailure(
                            error: "reload failed; still serving the previous catalog", fixtures: error.root?.path,
                            problems: error.problems))
                } catch let error as StubServerError {
                    return .json(.conflict, AdminBody.ControlFailure(error))
                } catch {
                    return .error(HTTPError(.conflict, "\(error)"))
                }
            }
        }
    }

    /// Runs `command` on the open sockets of a WebSocket stub: `{"sent": N}` with how many it reached.
    private func webSocketCommand(stub: String, _ command: (String) throws(HTTPError) -> Int) -> Response {
        let catalog = host.catalog
        guard let found = catalog.stub(named: stub) else {
            return .error(
                HTTPError(.notFound, StubServerError.unknownStub(stub, known: catalog.stubs.map(\.name)).description))
        }
        guard found.request.webSocket != nil else {
            return .error(
                HTTPError(.badRequest, "stub \(stub) is not a WebSocket stub (its request has no \"websocket\")"))
        }
        do {
            return .json(.ok, ["sent": try command(stub)])
        } catch {
            return .error(error)
        }
    }

    /// `{"text": "hi"}`, `{"json": VALUE}` (sent as its JSON text), `{"binary": BASE64}`, or a plain-text body.
    private static func webSocketMessage(in request: Request) throws(HTTPError) -> WebSocketMessage {
        let text = String(decoding: request.body, as: UTF8.self)
        guard text.trimmingWhitespace().hasPrefix("{") else { return .text(text) }
        guard case .object(let fields)? = try? JSONDecoder().decode(JSONValue.self, from: Data(request.body)),
            fields.count == 1
        else {
            throw HTTPError(.badRequest, #"expected {"text": "..."}, {"json": VALUE} or {"binary": BASE64}"#)
        }
        switch (fields["text"], fields["json"], fields["binary"]) {
        case (.string(let text)?, nil, nil): return .text(text)
        case (nil, let json?, nil): return .text(json.jsonText)
        case (nil, nil, .string(let encoded)?):
            guard let bytes = Base64.decode(encoded) else { throw HTTPError(.badRequest, "binary must be base64") }
            return .binary(bytes)
        default:
            throw HTTPError(.badRequest, #"expected {"text": "..."}, {"json": VALUE} or {"binary": BASE64}"#)
        }
    }

    private func respond(_ action: () throws(StubServerError) -> Response) -> Response {
        do {
            return try action()
        } catch {
            let status: HTTPStatus =
                switch error {
                case .unknownStub, .unknownScenario, .notAResource: .notFound
                case .invalidItems: .unprocessableContent
                default: .badRequest
                }
            return .json(status, AdminBody.ControlFailure(error))
        }
    }

    /// The variant named by `?variant=`, a JSON body `{"variant": "bad"}`, or a plain-text body.
    private func variantName(in request: Request) throws(StubServerError) -> String {
        try namedValue("variant", in: request)
    }

    /// The value of `key` from `?KEY=`, a JSON body `{"KEY": "value"}`, or a plain-text body.
    private func namedValue(_ key: String, in request: Request) throws(StubServerError) -> String {
        if let name = request.queryValue(key), !name.isEmpty { return name }
        if let object = try? JSONDecoder().decode([String: String].self, from: Data(request.body)),
            let name = object[key]
        {
            return name
        }
        let text = String(decoding: request.body, as: UTF8.self).trimmingWhitespace()
        guard !text.isEmpty, !text.hasPrefix("{") else {
            throw .valueMissing(key)
        }
        return text
    }

    /// Every field of `JournalQuery` from the query string: `stub`, `variant`, `method`, `path`, `query.NAME=VALUE`
    /// (one per query item the request must carry), `unmatched=true`, `body` (text the body contains), `change` and
    /// `key` (what the request did to a resource, and the item's key).
    private func journalQuery(_ request: Request) -> JournalQuery {
        var items: [String: String] = [:]
        for item in request.query where item.name.hasPrefix("query.") {
            items[String(item.name.dropFirst("query.".count))] = item.value
        }
        return JournalQuery(
            stub: request.queryValue("stub"), variant: request.queryValue("variant"),
            method: request.queryValue("method"), path: request.queryValue("path"), query: items,
            unmatchedOnly: request.queryValue("unmatched") == "true", bodyContains: request.queryValue("body"),
            change: request.queryValue("change").flatMap(JournalEntry.ResourceTouch.Change.init(rawValue:)),
            key: request.queryValue("key"))
    }

    private func stubList() -> AdminBody.StubList {
        host.runtime.read { state in
            AdminBody.StubList(
                serverVariant: state.serverVariant,
                stubs: state.catalog.stubs.map { stub in
                    AdminBody.StubList.Item(
                        name: stub.name, api: stub.api, method: stub.request.method,
                        path: stub.request.path.description, route: stub.request.summary,
                        variants: stub.variantNames, sequence: stub.sequence.isEmpty ? nil : stub.sequence,
                        choice: state.stubVariants[stub.name], mutation: state.stubMutations[stub.name],
                        sequenceCalls: state.sequenceCalls[stub.name] ?? 0,
                        served: stub.variantNames.reduce(into: [:]) { served, variant in
                            served[variant] = state.served.variants[stub.name]?[variant] ?? 0
                        },
                        servedMutants: state.served.mutants[stub.name] ?? 0,
                        resource: stub.resource != nil ? true : nil,
                        scenario: stub.scenario.map { scenario in
                            AdminBody.StubList.Scenario(
                                name: scenario.name, when: scenario.when, then: scenario.then,
                                state: state.scenarios[scenario.name] ?? StubScenario.start)
                        })
                })
        }
    }

    private func scenarioList() -> AdminBody.ScenarioList {
        let current = host.scenarios
        let catalog = host.catalog
        return AdminBody.ScenarioList(
            scenarios: catalog.scenarios.keys.sorted().map { name in
                AdminBody.ScenarioList.Item(
                    name: name, state: current[name] ?? StubScenario.start, states: catalog.scenarios[name] ?? [],
                    stubs: catalog.stubs.filter { $0.scenario?.name == name }.map(\.name))
            })
    }
}

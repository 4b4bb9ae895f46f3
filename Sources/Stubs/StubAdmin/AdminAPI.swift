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
/// spoken by `RemoteStubs`. Contributing/AdminAPI.md lists the endpoints.
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
        let onPath = Self.routes.filter { $0.matches(parts) }
        if let route = onPath.first(where: { $0.methods.contains(method) }) {
            return route.handle(self, request, parts)
        }
        let known = Self.routes.filter { $0.path.split(separator: "/").count == parts.count + 1 || parts.isEmpty }
        return .json(
            onPath.isEmpty ? .notFound : .methodNotAllowed,
            AdminHelp(
                error: "\(request.method) \(request.path) is not an admin endpoint",
                endpoints: (known.isEmpty ? Self.routes : known).map(\.description)))
    }

    /// One admin endpoint: the methods it answers, its path (with `{name}` segments) and what it does.
    private struct AdminRoute: CustomStringConvertible, Sendable {
        var methods: [String]
        var path: String
        var handle: @Sendable (AdminAPI, Request, _ parts: [String]) -> Response

        var description: String { "\(methods.joined(separator: "|")) \(path)" }

        func matches(_ parts: [String]) -> Bool {
            let pattern = path.split(separator: "/").dropFirst()
            return pattern.count == parts.count && zip(pattern, parts).allSatisfy { $0.hasPrefix("{") || $0 == $1 }
        }
    }

    /// Every admin endpoint, in the order the help lists them. `PUT` and `POST` both set a variant.
    private static let routes: [AdminRoute] = [
        AdminRoute(methods: ["GET"], path: "/__stub") { api, request, _ in
            // A browser gets the control page; anything else the list of endpoints.
            if request.headers["Accept"]?.contains("text/html") == true {
                return ControlPage.response(ControlPage.html, type: "text/html; charset=utf-8")
            }
            return .json(
                .ok,
                AdminIndex(
                    page: "open \(api.baseURL.absoluteString)/__stub/ in a browser",
                    endpoints: AdminAPI.routes.map(\.description)))
        },
        AdminRoute(methods: ["GET"], path: "/__stub/control.js") { _, _, _ in
            ControlPage.response(ControlPage.script, type: "text/javascript; charset=utf-8")
        },
        AdminRoute(methods: ["GET"], path: "/__stub/control.css") { _, _, _ in
            ControlPage.response(ControlPage.css, type: "text/css; charset=utf-8")
        },
        AdminRoute(methods: ["GET"], path: "/__stub/icon.svg") { _, _, _ in
            ControlPage.response(ControlPage.icon, type: "image/svg+xml")
        },
        AdminRoute(methods: ["GET"], path: "/__stub/health") { api, _, _ in
            let catalog = api.host.catalog
            return .json(
                .ok,
                Health(
                    status: "ok", stubs: catalog.stubs.count, fixtures: catalog.root?.path,
                    seed: String(api.host.runtime.seed), chaos: api.host.runtime.read(\.chaos),
                    lastReload: api.host.lastReload,
                    stalledConnections: api.sockets?.counters.stalledConnections,
                    acceptPauses: api.sockets?.counters.acceptPauses))
        },
        AdminRoute(methods: ["GET"], path: "/__stub/stubs") { api, _, _ in .json(.ok, api.stubList()) },
        AdminRoute(methods: ["PUT", "POST"], path: "/__stub/variant") { api, request, _ in
            api.respond { () throws(StubServerError) in
                try api.host.setVariant(try api.variantName(in: request))
                return .json(.ok, api.stubList())
            }
        },
        AdminRoute(methods: ["DELETE"], path: "/__stub/variant") { api, _, _ in
            api.respond { () throws(StubServerError) in
                try api.host.setVariant(nil)
                return .json(.ok, api.stubList())
            }
        },
        AdminRoute(methods: ["PUT", "POST"], path: "/__stub/stubs/{name}/variant") { api, request, parts in
            api.respond { () throws(StubServerError) in
                try api.host.setVariant(try api.variantName(in: request), forStub: parts[1])
                return .json(.ok, api.stubList())
            }
        },
        AdminRoute(methods: ["DELETE"], path: "/__stub/stubs/{name}/variant") { api, _, parts in
            api.respond { () throws(StubServerError) in
                try api.host.setVariant(nil, forStub: parts[1])
                return .json(.ok, api.stubList())
            }
        },
        AdminRoute(methods: ["PUT", "POST"], path: "/__stub/stubs/{name}/mutation") { api, request, parts in
            api.respond { () throws(StubServerError) in
                try api.host.setMutation(try api.namedValue("mutation", in: request), forStub: parts[1])
                return .json(.ok, api.stubList())
            }
        },
        AdminRoute(methods: ["GET"], path: "/__stub/stubs/{name}/mutations") { api, request, parts in
            api.respond { () throws(StubServerError) in
                let variant =
                    request.query.first { $0.name == "variant" }?.value
                    ?? api.host.variant(forStub: parts[1]) ?? "good"
                let mutants = try api.host.catalog.existingVariant(variant, ofStub: parts[1]).mutants
                return .json(
                    .ok,
                    mutants.map {
                        MutantItem(
                            id: $0.id, description: $0.description, aliases: $0.aliases.isEmpty ? nil : $0.aliases)
                    })
            }
        },
        AdminRoute(methods: ["DELETE"], path: "/__stub/stubs/{name}/mutation") { api, _, parts in
            api.respond { () throws(StubServerError) in
                try api.host.setMutation(nil, forStub: parts[1])
                return .json(.ok, api.stubList())
            }
        },
        AdminRoute(methods: ["GET"], path: "/__stub/journal") { api, request, _ in
            var entries = api.host.journal(api.journalQuery(request))
            // `after=ID`: only entries newer than one already seen, for a page that polls.
            if let after = request.queryValue("after").flatMap(Int.init) { entries.removeAll { $0.id <= after } }
            return .json(.ok, JournalPage(count: entries.count, entries: entries))
        },
        AdminRoute(methods: ["DELETE"], path: "/__stub/journal") { api, _, _ in
            api.host.clearJournal()
            return .json(.ok, ["count": 0])
        },
        AdminRoute(methods: ["GET"], path: "/__stub/journal/count") { api, request, _ in
            .json(.ok, ["count": api.host.requestCount(api.journalQuery(request))])
        },
        AdminRoute(methods: ["GET"], path: "/__stub/unmatched") { api, _, _ in
            // Requests no stub matched, and requests that broke their stub's API contract: what strict tests fail on.
            let entries = api.host.journal(JournalQuery()).filter { entry in
                (entry.stub == nil && entry.forwarded == nil) || !(entry.contractViolations ?? []).isEmpty
            }
            return .json(.ok, JournalPage(count: entries.count, entries: entries))
        },
        AdminRoute(methods: ["GET"], path: "/__stub/resources/{name}") { api, _, parts in
            api.respond { () throws(StubServerError) in
                let items = try api.host.items(ofResource: parts[1])
                return Response(
                    status: .ok, headers: HTTPHeaders([("Content-Type", "application/json")]), body: [UInt8](items))
            }
        },
        AdminRoute(methods: ["PUT"], path: "/__stub/resources/{name}") { api, request, parts in
            api.respond { () throws(StubServerError) in
                try api.host.setItems(Data(request.body), ofResource: parts[1])
                return Response(
                    status: .ok, headers: HTTPHeaders([("Content-Type", "application/json")]),
                    body: [UInt8](try api.host.items(ofResource: parts[1])))
            }
        },
        AdminRoute(methods: ["GET"], path: "/__stub/scenarios") { api, _, _ in .json(.ok, api.scenarioList()) },
        AdminRoute(methods: ["PUT", "POST"], path: "/__stub/scenarios/{name}/state") { api, request, parts in
            api.respond { () throws(StubServerError) in
                try api.host.setScenario(parts[1], to: try api.namedValue("state", in: request))
                return .json(.ok, api.scenarioList())
            }
        },
        AdminRoute(methods: ["POST"], path: "/__stub/scenarios/reset") { api, _, _ in
            api.respond { () throws(StubServerError) in
                try api.host.resetScenario()
                return .json(.ok, api.scenarioList())
            }
        },
        AdminRoute(methods: ["POST"], path: "/__stub/scenarios/{name}/reset") { api, _, parts in
            api.respond { () throws(StubServerError) in
                try api.host.resetScenario(parts[1])
                return .json(.ok, api.scenarioList())
            }
        },
        AdminRoute(methods: ["GET"], path: "/__stub/websockets") { api, _, _ in
            .json(.ok, api.sockets?.webSocketCounts ?? [:])
        },
        AdminRoute(methods: ["POST"], path: "/__stub/websockets/{name}/send") { api, request, parts in
            api.webSocketCommand(stub: parts[1]) { stub throws(HTTPError) in
                api.sockets?.send(try AdminAPI.webSocketMessage(in: request), stub: stub) ?? 0
            }
        },
        AdminRoute(methods: ["POST"], path: "/__stub/websockets/{name}/close") { api, request, parts in
            api.webSocketCommand(stub: parts[1]) { stub throws(HTTPError) in
                let fields = (try? JSONDecoder().decode(JSONValue.self, from: Data(request.body))) ?? .object([:])
                guard case .object(let options) = fields else { throw HTTPError(.badRequest, "expected a JSON object") }
                var code: UInt16 = 1000
                if case .number(let number)? = options["code"] {
                    guard let valid = UInt16(exactly: number), WebSocketCloseCode.maySend(Int(valid)) else {
                        throw HTTPError(
                            .badRequest, "code must be a close code that may be sent: 1000-1003, 1007-1014, 3000-4999")
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
        },
        // The test the answers are for, in the coverage records (a test driving these stubs from another process).
        AdminRoute(methods: ["PUT", "POST"], path: "/__stub/coverage/test") { api, request, _ in
            api.respond { () throws(StubServerError) in
                let test = try api.namedValue("test", in: request)
                api.host.runtime.recordCoverage(as: test)
                return .json(.ok, ["test": test])
            }
        },
        AdminRoute(methods: ["DELETE"], path: "/__stub/coverage/test") { api, _, _ in
            api.host.runtime.recordCoverage(as: nil)
            return .json(.ok, [String: String]())
        },
        AdminRoute(methods: ["POST"], path: "/__stub/reset") { api, _, _ in
            api.host.reset()
            return .json(.ok, api.stubList())
        },
        AdminRoute(methods: ["POST"], path: "/__stub/reload") { api, _, _ in
            do {
                let report = try api.host.reload()
                return .json(
                    .ok,
                    Health(
                        status: "reloaded", stubs: report.stubs, fixtures: api.host.catalog.root?.path,
                        lastReload: report))
            } catch let error as CatalogError {
                return .json(
                    .unprocessableContent,
                    ReloadFailure(
                        error: "reload failed; still serving the previous catalog", fixtures: error.root?.path,
                        problems: error.problems))
            } catch let error as StubServerError {
                return .json(.conflict, ControlFailure(error))
            } catch {
                return .error(HTTPError(.conflict, "\(error)"))
            }
        },
    ]

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
            return .json(status, ControlFailure(error))
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

    private func stubList() -> StubList {
        host.runtime.read { state in
            StubList(
                serverVariant: state.serverVariant,
                stubs: state.catalog.stubs.map { stub in
                    StubList.Item(
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
                            StubList.Scenario(
                                name: scenario.name, when: scenario.when, then: scenario.then,
                                state: state.scenarios[scenario.name] ?? StubScenario.start)
                        })
                })
        }
    }

    private func scenarioList() -> ScenarioList {
        let current = host.scenarios
        let catalog = host.catalog
        return ScenarioList(
            scenarios: catalog.scenarios.keys.sorted().map { name in
                ScenarioList.Item(
                    name: name, state: current[name] ?? StubScenario.start, states: catalog.scenarios[name] ?? [],
                    stubs: catalog.stubs.filter { $0.scenario?.name == name }.map(\.name))
            })
    }

    /// What `GET /__stub/scenarios` answers.
    struct ScenarioList: Encodable {
        var scenarios: [Item]

        struct Item: Encodable {
            var name, state: String
            var states, stubs: [String]
        }
    }

    private struct Health: Encodable {
        var status: String
        var stubs: Int
        var fixtures: String?
        /// The seed of random faults and chaos, as text: JSON numbers lose 64-bit precision.
        var seed: String?
        var chaos: Double?
        var lastReload: ReloadReport?
        var stalledConnections: Int?
        /// Times accepting stopped for want of file descriptors.
        var acceptPauses: Int?
    }

    private struct AdminIndex: Encodable {
        var page: String
        var endpoints: [String]
    }

    private struct JournalPage: Encodable {
        var count: Int
        var entries: [JournalEntry]
    }

    private struct ReloadFailure: Encodable {
        var error: String
        /// The folder that was loaded.
        var fixtures: String?
        var problems: [FixtureProblem]
    }

    /// A refused control call: the message, and the error itself for a `RemoteStubs` to throw again.
    private struct ControlFailure: Encodable {
        var error: String
        var kind: StubServerError

        init(_ error: StubServerError) {
            self.error = error.description
            self.kind = error
        }
    }

    private struct AdminHelp: Encodable {
        var error: String
        var endpoints: [String]
    }

    /// What `GET /__stub/stubs` answers.
    /// One mutant of a stub's variant, as `stub-server mutations --json` lists it.
    struct MutantItem: Encodable {
        var id, description: String
        /// The IDs of mutants that serve the same answer, listed once under `id`; each still resolves.
        var aliases: [String]?
    }

    struct StubList: Encodable {
        var serverVariant: String?
        var stubs: [Item]

        struct Item: Encodable {
            var name, api, method, path: String
            /// The path with its query, header and body conditions.
            var route: String
            var variants: [String]
            var sequence: [String]?
            var choice: String?
            /// The mutant chosen for the stub, by ID, if any.
            var mutation: String?
            var sequenceCalls: Int
            /// Answers of each variant, as written, since the server started (0 for one never served).
            var served: [String: Int]
            /// Answers that were a mutant of one of the variants, since the server started.
            var servedMutants: Int
            /// True for a resource stub, whose items `GET /__stub/resources/NAME` answers.
            var resource: Bool?
            var scenario: Scenario?
        }

        struct Scenario: Encodable {
            var name: String
            var when, then: String?
            /// The scenario's current state.
            var state: String
        }
    }
}

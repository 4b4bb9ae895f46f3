import Foundation

extension StubServer {
    /// Answers the admin API under `/__stub/`.
    func adminResponse(to request: HTTPRequest) -> HTTPResponse {
        let parts = request.path.split(separator: "/").dropFirst().map(String.init)
        let method = request.method == "HEAD" ? "GET" : request.method
        let isStubRoute = parts.count == 3 && parts[0] == "stubs" && parts[2] == "variant"
        let stub = isStubRoute ? parts[1] : ""
        let route = isStubRoute ? "stubs/{name}/variant" : parts.joined(separator: "/")
        switch (method, route) {
        case ("GET", "health"):
            return .json(.ok, Health(status: "ok", stubs: catalog.stubs.count, fixtures: catalog.root?.path))
        case ("GET", "stubs"):
            return .json(.ok, stubList())
        case ("PUT", "variant"), ("POST", "variant"):
            return respond { () throws(StubServerError) in
                try setVariant(try variantName(in: request))
                return .json(.ok, stubList())
            }
        case ("DELETE", "variant"):
            return respond { () throws(StubServerError) in
                try setVariant(nil)
                return .json(.ok, stubList())
            }
        case ("PUT", "stubs/{name}/variant"), ("POST", "stubs/{name}/variant"):
            return respond { () throws(StubServerError) in
                try setVariant(try variantName(in: request), forStub: stub)
                return .json(.ok, stubList())
            }
        case ("DELETE", "stubs/{name}/variant"):
            return respond { () throws(StubServerError) in
                try setVariant(nil, forStub: stub)
                return .json(.ok, stubList())
            }
        case ("GET", "journal"):
            let entries = journal(journalQuery(request))
            return .json(.ok, JournalPage(count: entries.count, entries: entries))
        case ("GET", "journal/count"):
            return .json(.ok, ["count": requestCount(journalQuery(request))])
        case ("DELETE", "journal"):
            clearJournal()
            return .json(.ok, ["count": 0])
        case ("GET", "unmatched"):
            let entries = unmatchedRequests()
            return .json(.ok, JournalPage(count: entries.count, entries: entries))
        case ("POST", "reset"):
            reset()
            return .json(.ok, stubList())
        case ("POST", "reload"):
            do {
                let fresh = try reload()
                return .json(.ok, Health(status: "reloaded", stubs: fresh.stubs.count, fixtures: fresh.root?.path))
            } catch let error as CatalogError {
                return .json(
                    .unprocessableContent,
                    ReloadFailure(error: "reload failed; still serving the previous catalog", problems: error.problems))
            } catch {
                return .error(HTTPError(.conflict, "\(error)"))
            }
        default:
            let known = Self.adminRoutes.filter {
                $0.path.split(separator: "/").count == parts.count + 1 || parts.isEmpty
            }
            let status: HTTPStatus = Self.adminRoutes.contains { $0.matches(parts) } ? .methodNotAllowed : .notFound
            return .json(
                status,
                AdminHelp(
                    error: "\(request.method) \(request.path) is not an admin endpoint",
                    endpoints: (known.isEmpty ? Self.adminRoutes : known).map(\.description)))
        }
    }

    private func respond(_ action: () throws(StubServerError) -> HTTPResponse) -> HTTPResponse {
        do {
            return try action()
        } catch {
            let status: HTTPStatus =
                switch error {
                case .unknownStub: .notFound
                default: .badRequest
                }
            return .error(HTTPError(status, error.description))
        }
    }

    /// The variant named by `?variant=`, a JSON body `{"variant": "bad"}`, or a plain-text body.
    private func variantName(in request: HTTPRequest) throws(StubServerError) -> String {
        if let name = request.queryValue("variant"), !name.isEmpty { return name }
        if let object = try? JSONDecoder().decode([String: String].self, from: Data(request.body)),
            let name = object["variant"]
        {
            return name
        }
        let text = String(decoding: request.body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty, !text.hasPrefix("{") else {
            throw .variantNowhere("(none given: send {\"variant\": \"NAME\"})")
        }
        return text
    }

    private func journalQuery(_ request: HTTPRequest) -> JournalQuery {
        JournalQuery(
            stub: request.queryValue("stub"), variant: request.queryValue("variant"),
            method: request.queryValue("method"),
            path: request.queryValue("path"), unmatchedOnly: request.queryValue("unmatched") == "true")
    }

    private func stubList() -> StubList {
        state.withLock { state in
            StubList(
                serverVariant: state.serverVariant,
                stubs: state.catalog.stubs.map { stub in
                    StubList.Item(
                        name: stub.name, api: stub.api, method: stub.request.method,
                        path: stub.request.path.description,
                        variants: stub.variantNames, sequence: stub.sequence.isEmpty ? nil : stub.sequence,
                        choice: state.stubVariants[stub.name], sequenceCalls: state.sequenceCalls[stub.name] ?? 0)
                })
        }
    }

    private struct Health: Encodable {
        var status: String
        var stubs: Int
        var fixtures: String?
    }

    private struct JournalPage: Encodable {
        var count: Int
        var entries: [JournalEntry]
    }

    private struct ReloadFailure: Encodable {
        var error: String
        var problems: [FixtureProblem]
    }

    private struct AdminHelp: Encodable {
        var error: String
        var endpoints: [String]
    }

    /// What `GET /__stub/stubs` answers.
    struct StubList: Encodable {
        var serverVariant: String?
        var stubs: [Item]

        struct Item: Encodable {
            var name, api, method, path: String
            var variants: [String]
            var sequence: [String]?
            var choice: String?
            var sequenceCalls: Int
        }
    }

    private struct AdminRoute: CustomStringConvertible {
        var methods: String
        var path: String
        var description: String { "\(methods) \(path)" }

        func matches(_ parts: [String]) -> Bool {
            let pattern = path.split(separator: "/").dropFirst()
            return pattern.count == parts.count && zip(pattern, parts).allSatisfy { $0.hasPrefix("{") || $0 == $1 }
        }
    }

    private static let adminRoutes = [
        AdminRoute(methods: "GET", path: "/__stub/health"),
        AdminRoute(methods: "GET", path: "/__stub/stubs"),
        AdminRoute(methods: "PUT|DELETE", path: "/__stub/variant"),
        AdminRoute(methods: "PUT|DELETE", path: "/__stub/stubs/{name}/variant"),
        AdminRoute(methods: "GET|DELETE", path: "/__stub/journal"),
        AdminRoute(methods: "GET", path: "/__stub/journal/count"),
        AdminRoute(methods: "GET", path: "/__stub/unmatched"),
        AdminRoute(methods: "POST", path: "/__stub/reset"),
        AdminRoute(methods: "POST", path: "/__stub/reload"),
    ]
}

public import Foundation
import JSONModel
public import StubCore
import StubServer
import XMLPath

/// Compares each replayable stub's `good` answer with what the real API answers now: status, content type, and
/// the shape of the body (JSON key paths and their types, XML element and attribute paths). Meant for a nightly
/// CI job: a key the fixture has that is gone or changed type upstream is a breaking difference.
public struct DriftChecker: Sendable {
    private let client: UpstreamClient

    public init(upstream: URL, timeout: Duration = .seconds(30)) {
        client = UpstreamClient(upstream: upstream, timeout: timeout)
    }

    /// One way a fixture and the real API differ.
    public struct Difference: Sendable, Equatable, CustomStringConvertible {
        public var file: String
        public var stub: String
        /// Such as `status`, `content type`, `results[].trackName` or `feed.entry.link@href`.
        public var keyPath: String
        public var message: String
        /// Whether a client written against the fixture may break: a key gone or changed, another status or type.
        public var isBreaking: Bool

        public var description: String { "\(file): \(stub): \(keyPath): \(message)" }
    }

    /// What one check found.
    public struct Report: Sendable, Equatable {
        public var differences: [Difference] = []
        /// The stubs compared.
        public var checked: [String] = []
        /// Stubs not replayable, with why.
        public var skipped: [String] = []

        public init(differences: [Difference] = [], checked: [String] = [], skipped: [String] = []) {
            self.differences = differences
            self.checked = checked
            self.skipped = skipped
        }

        /// Whether the check fails: on a breaking difference, or with `strict` on any difference.
        public func fails(strict: Bool) -> Bool {
            differences.contains { strict || $0.isBreaking }
        }
    }

    /// Checks every stub of `catalog` (of the API folder `api` only, when given).
    public func check(_ catalog: StubCatalog, api: String? = nil) async -> Report {
        var report = Report()
        for stub in catalog.stubs where api == nil || stub.api == api {
            guard stub.resource == nil else {
                report.skipped.append("\(stub.name): a resource, whose answers its collection makes")
                continue
            }
            guard let request = Self.replayRequest(for: stub, report: &report) else { continue }
            guard let good = stub.variants["good"], good.fault == nil else {
                report.skipped.append("\(stub.name): its good variant is a fault")
                continue
            }
            report.checked.append(stub.name)
            func differ(_ keyPath: String, _ message: String, breaking: Bool = true) {
                report.differences.append(
                    Difference(
                        file: stub.file, stub: stub.name, keyPath: keyPath, message: message, isBreaking: breaking))
            }
            switch await client.send(request) {
            case .failed(_, let message):
                differ("upstream", message)
            case .response(let status, let headers, let body):
                if status != good.status { differ("status", "upstream \(status) (fixture: \(good.status))") }
                let upstreamLabel = headers.first { $0.name.lowercased() == "content-type" }?.value
                let fixtureLabel = good.header("Content-Type")
                let (upstreamType, fixtureType) = (Self.mediaType(upstreamLabel), Self.mediaType(fixtureLabel))
                let fixtureKind = BodyKind(good.body, contentType: fixtureLabel)
                let upstreamKind = BodyKind(body, contentType: upstreamLabel)
                if upstreamType != fixtureType {
                    // A new label on the same kind of body breaks no client that reads the body.
                    differ(
                        "content type", "upstream \(upstreamType ?? "none") (fixture: \(fixtureType ?? "none"))",
                        breaking: upstreamKind != fixtureKind)
                }
                if let turn = good.turnFormat, status == good.status, let problem = Self.grammarProblem(body, turn) {
                    differ("turn", "the answer no longer follows \(turn.format.rawValue): \(problem)")
                }
                for (path, message, breaking) in Self.shapeDifferences(
                    fixture: good.body, fixtureKind: fixtureKind, upstream: body, upstreamKind: upstreamKind)
                {
                    differ(path, message, breaking: breaking)
                }
            }
        }
        return report
    }

    /// Where an upstream answer leaves the grammar of the model API format its fixture's turn is rendered in
    /// (`TurnReader`); nil when it follows it.
    static func grammarProblem(
        _ body: [UInt8], _ turn: (format: TurnFormat, streaming: TurnFormat.Streaming)
    ) -> TurnReader.Problem? {
        do {
            switch turn.streaming {
            case .sse:
                guard let events = try? EventStreamFile.parse(body) else {
                    return TurnReader.Problem("the answer is not an event stream")
                }
                _ = try TurnReader.read(events, as: turn.format)
            case .none, .jsonArray: _ = try TurnReader.read(whole: body, as: turn.format)
            }
            return nil
        } catch {
            return error
        }
    }

    /// The request to replay: the stub's `replay` example (with its JSON body, for any method), else its literal
    /// path and exact query matchers (GET only).
    static func replayRequest(for stub: Stub, report: inout Report) -> ForwardedRequest? {
        guard stub.request.method == "GET" || stub.replay?.body != nil else {
            report.skipped.append("\(stub.name): only GET stubs are replayed, and others with a \"replay\" body")
            return nil
        }
        var path: String
        var query: [(String, String)]
        if let replay = stub.replay {
            path = replay.path
            query = replay.query.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        } else {
            let literal = stub.request.path.segments.allSatisfy { if case .literal = $0 { true } else { false } }
            guard literal, !stub.request.path.segments.isEmpty else {
                report.skipped.append("\(stub.name): its path is not literal; add a \"replay\" example")
                return nil
            }
            path = stub.request.path.description
            query = []
            for (name, matcher) in stub.request.query {
                guard case .exact(let value) = matcher else {
                    report.skipped.append("\(stub.name): query.\(name) is not an exact value; add a \"replay\" example")
                    return nil
                }
                query.append((name, value))
            }
        }
        var components = URLComponents()
        components.path = path
        if !query.isEmpty { components.queryItems = query.map { URLQueryItem(name: $0.0, value: $0.1) } }
        let target =
            (components.percentEncodedPath.isEmpty ? path : components.percentEncodedPath)
            + (components.percentEncodedQuery.map { "?" + $0.replacingOccurrences(of: "+", with: "%2B") } ?? "")
        let body = stub.replay?.body
        return ForwardedRequest(
            method: body == nil ? "GET" : stub.request.method, target: target, path: path,
            query: query.map { JournalEntry.QueryItem(name: $0.0, value: $0.1) },
            headers: body == nil ? [] : [HeaderField(name: "Content-Type", value: "application/json")], body: body ?? []
        )
    }

    static func mediaType(_ contentType: String?) -> String? {
        contentType.map {
            $0.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        }
    }

    /// Key paths that differ, with a message and whether the difference breaks a client of the fixture. Bodies are
    /// compared by what they hold (`BodyKind`), not by their labels: JSON served as `text/javascript` is JSON.
    static func shapeDifferences(
        fixture: [UInt8], fixtureKind: BodyKind, upstream: [UInt8], upstreamKind: BodyKind
    ) -> [(String, String, Bool)] {
        if fixtureKind != upstreamKind, fixtureKind == .json || fixtureKind == .xml {
            return [("body", "upstream \(upstreamKind.name) (fixture: \(fixtureKind.name))", true)]
        }
        switch fixtureKind {
        case .json:
            guard let fixtureShape = jsonShape(fixture) else { return [("body", "the fixture is not JSON", false)] }
            guard let upstreamShape = jsonShape(upstream) else {
                return [("body", "the upstream answer is not JSON", true)]
            }
            var found: [(String, String, Bool)] = []
            func names(_ types: Set<String>) -> String { types.sorted().joined(separator: " or ") }
            for (path, types) in fixtureShape.sorted(by: { $0.key < $1.key }) {
                guard let actual = upstreamShape[path] else {
                    found.append((path, "missing upstream (fixture: \(names(types)))", true))
                    continue
                }
                if actual.isDisjoint(with: types) {
                    found.append((path, "upstream \(names(actual)) (fixture: \(names(types)))", true))
                }
            }
            for (path, types) in upstreamShape.sorted(by: { $0.key < $1.key }) where fixtureShape[path] == nil {
                found.append((path, "new upstream: \(names(types))", false))
            }
            return found
        case .xml:
            guard let fixturePaths = try? XMLShape.paths(in: Data(fixture)) else {
                return [("body", "the fixture is not well-formed XML", false)]
            }
            let upstreamPaths: Set<String>
            do {
                upstreamPaths = try XMLShape.paths(in: Data(upstream))
            } catch {
                return [("body", "the upstream answer is not well-formed XML: \(error)", true)]
            }
            return fixturePaths.subtracting(upstreamPaths).sorted().map { ($0, "missing upstream", true) }
                + upstreamPaths.subtracting(fixturePaths).sorted().map { ($0, "new upstream", false) }
        case .empty, .html, .text, .binary:
            return []
        }
    }

    /// Every key path of a JSON document with the types found there; array elements are merged as `name[]`.
    static func jsonShape(_ bytes: [UInt8]) -> [String: Set<String>]? {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes)) else { return nil }
        var shape: [String: Set<String>] = [:]
        func walk(_ value: JSONValue, _ path: String) {
            switch value {
            case .null: shape[path, default: []].insert("null")
            case .bool: shape[path, default: []].insert("bool")
            case .number: shape[path, default: []].insert("number")
            case .string: shape[path, default: []].insert("string")
            case .array(let items):
                shape[path, default: []].insert("array")
                for item in items { walk(item, path + "[]") }
            case .object(let fields):
                shape[path, default: []].insert("object")
                for (key, field) in fields { walk(field, path.isEmpty ? key : "\(path).\(key)") }
            }
        }
        walk(value, "")
        shape[""] = nil
        return shape
    }
}

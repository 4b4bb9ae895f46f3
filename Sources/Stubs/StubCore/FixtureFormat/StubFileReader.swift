import HTTPMessages
import JSONModel
import StubMutations

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads one API folder's `stubs.json`, collecting every problem with its key path instead of stopping at the first.
struct StubFileReader {
    let root: URL
    let api: String
    private(set) var problems: [FixtureProblem] = []

    package init(root: URL, api: String) {
        self.root = root
        self.api = api
    }

    private var file: String { "\(api)/stubs.json" }
    private var folder: URL { root.appendingPathComponent(api) }

    /// The stubs the file declares; problems are collected in `problems`.
    mutating func read() -> [Stub] {
        let url = folder.appendingPathComponent("stubs.json")
        guard let data = FileManager.default.contents(atPath: url.path) else {
            report("", "cannot read file")
            return []
        }
        return read(data)
    }

    /// The stubs `data` (the file's bytes) declares; body files are still read from the folder.
    mutating func read(_ data: Data) -> [Stub] {
        let document: JSONValue
        do {
            document = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            report("", "invalid JSON: \(Self.describe(error))")
            return []
        }
        guard let top = object(document, at: "", known: ["hosts", "stubs"]), let list = top["stubs"] else {
            if case .object = document { report("stubs", "missing") }
            return []
        }
        guard case .array(let entries) = list else {
            report("stubs", "must be an array, not \(list.kind)")
            return []
        }
        var hosts: [String] = []
        if let value = top["hosts"] { hosts = readHosts(value) }
        return entries.enumerated().compactMap { index, entry in
            var stub = readStub(entry, at: "stubs[\(index)]")
            stub?.hosts = hosts
            return stub
        }
    }

    /// `["itunes.apple.com"]`: the hosts the file's stubs answer in process; each a host name or address, without
    /// scheme, port or path.
    private mutating func readHosts(_ value: JSONValue) -> [String] {
        guard case .array(let items) = value, !items.isEmpty else {
            report("hosts", "must be a non-empty array of host names such as \"itunes.apple.com\"")
            return []
        }
        return items.enumerated().compactMap { index, item in
            guard let host = string(item, at: "hosts[\(index)]", required: true) else { return nil }
            guard Stub.isValidHost(host) else {
                report(
                    "hosts[\(index)]",
                    "must be a host name such as \"itunes.apple.com\", without scheme, port or path, not "
                        + host.debugDescription)
                return nil
            }
            return host.lowercased()
        }
    }

    private mutating func readStub(_ value: JSONValue, at path: String) -> Stub? {
        guard
            let fields = object(
                value, at: path,
                known: ["name", "request", "variants", "sequence", "replay", "scenario", "openapi", "resource"])
        else {
            return nil
        }
        let name = string(fields["name"], at: "\(path).name", required: true)
        let request = fields["request"].flatMap { readRequest($0, at: "\(path).request") }
        if fields["request"] == nil { report("\(path).request", "missing") }
        var sequence: [String] = []
        if let value = fields["sequence"] {
            if case .array(let items) = value, !items.isEmpty {
                sequence = items.enumerated().compactMap { string($1, at: "\(path).sequence[\($0)]", required: true) }
            } else {
                report("\(path).sequence", "must be a non-empty array of variant names")
            }
        }
        var variants = readVariants(fields["variants"], at: "\(path).variants")
        if case .object(let named)? = fields["variants"] {
            // Reported with the stub's other problems, not after they are fixed.
            if let problem = StubCatalog.missingVariants(Set(named.keys)) { report("\(path).variants", problem) }
        }
        if let route = request?.webSocket, var scripted = variants {
            for name in scripted.keys { scripted[name]?.script?.protocols = route.protocols }
            variants = scripted
        }
        if let request, request.webSocket == nil, let variants {
            for name in variants.keys.sorted() where variants[name]?.script != nil {
                report(
                    Self.child("\(path).variants", name) + ".script",
                    "a script answers a WebSocket stub: add \"websocket\": true to the request")
            }
        }
        let replay = fields["replay"].flatMap { readReplay($0, at: "\(path).replay") }
        let scenario = fields["scenario"].flatMap { readScenario($0, at: "\(path).scenario") }
        let contract = fields["openapi"].flatMap {
            readContract($0, at: "\(path).openapi", forResource: fields["resource"] != nil)
        }
        let resource = fields["resource"].flatMap { readResource($0, at: "\(path).resource") }
        if resource != nil, case .object(let requestFields)? = fields["request"], requestFields["method"] != nil {
            report(
                "\(path).request.method",
                "a resource answers GET, POST, PUT, PATCH and DELETE at its path: remove \"method\"")
        }
        guard let name, let request, let variants, fields["scenario"] == nil || scenario != nil,
            fields["openapi"] == nil || contract != nil, fields["resource"] == nil || resource != nil
        else { return nil }
        var stub = Stub(
            name: name, api: api, file: file, request: request, variants: variants, sequence: sequence, replay: replay,
            scenario: scenario)
        stub.contract = contract
        stub.resource = resource
        return stub
    }

    /// `{"spec": "../openapi.yaml", "operationId": "listPets"}` (or `"operation": "GET /pets"` where the operation has
    /// no id): the OpenAPI operation this stub stands for.
    /// A resource's stub may name no operation: each request is then checked against the operation of its method
    /// and path.
    private mutating func readContract(_ value: JSONValue, at path: String, forResource: Bool) -> Stub.Contract? {
        guard let fields = object(value, at: path, known: ["spec", "operationId", "operation"]) else { return nil }
        let spec = string(fields["spec"], at: "\(path).spec", required: true)
        let id = string(fields["operationId"], at: "\(path).operationId")
        let operation = string(fields["operation"], at: "\(path).operation")
        guard let spec else { return nil }
        switch (id, operation) {
        case (let id?, nil): return Stub.Contract(spec: spec, operation: .id(id))
        case (nil, let operation?):
            let parts = operation.split(separator: " ", maxSplits: 1).map(String.init)
            guard parts.count == 2, parts[1].hasPrefix("/") else {
                report("\(path).operation", "must be a method and a path, such as \"GET /pets/{petId}\"")
                return nil
            }
            return Stub.Contract(spec: spec, operation: .route(method: parts[0].uppercased(), path: parts[1]))
        case (nil, nil) where forResource:
            return Stub.Contract(spec: spec, operation: .eachRequest)
        default:
            report(path, "needs one of \"operationId\" and \"operation\"")
            return nil
        }
    }

    /// `{"path": "/albums/1", "query": {"limit": "5"}}`: a request the drift check sends for this stub.
    private mutating func readReplay(_ value: JSONValue, at path: String) -> Stub.Replay? {
        guard let fields = object(value, at: path, known: ["path", "query", "body"]) else { return nil }
        guard let target = string(fields["path"], at: "\(path).path", required: true) else { return nil }
        guard target.hasPrefix("/") else {
            report("\(path).path", "must start with /")
            return nil
        }
        var query: [String: String] = [:]
        if let value = fields["query"], let items = object(value, at: "\(path).query", known: nil) {
            for (name, item) in items {
                if let text = string(item, at: Self.child("\(path).query", name), required: true) { query[name] = text }
            }
        }
        // A JSON body to send (a model API's request), written out as JSON.
        return Stub.Replay(path: target, query: query, body: fields["body"].map { Array($0.jsonText.utf8) })
    }

    private mutating func readRequest(_ value: JSONValue, at path: String) -> RequestPattern? {
        let known = ["method", "path", "query", "headers", "body", "graphql", "websocket"]
        guard let fields = object(value, at: path, known: known)
        else {
            return nil
        }
        let method = string(fields["method"], at: "\(path).method") ?? "GET"
        if method.isEmpty || !method.utf8.allSatisfy(HTTPSyntax.isTokenByte) || method != method.uppercased() {
            report("\(path).method", "\(method.debugDescription) is not an upper-case HTTP method")
        }
        let pathText = string(fields["path"], at: "\(path).path", required: true)
        if let pathText, !pathText.hasPrefix("/") || pathText.contains("?") {
            report("\(path).path", "\(pathText.debugDescription) must start with '/' and hold no query (use \"query\")")
        }
        let query = matchers(fields["query"], at: "\(path).query")
        let headers = matchers(fields["headers"], at: "\(path).headers")
        let body = fields["body"].flatMap { readBodyMatcher($0, at: "\(path).body") }
        let graphql = fields["graphql"].flatMap { readGraphQLMatcher($0, at: "\(path).graphql") }
        let webSocket = fields["websocket"].flatMap { readWebSocket($0, at: "\(path).websocket") }
        if webSocket != nil, method != "GET" {
            report("\(path).method", "a WebSocket handshake is a GET, not \(method)")
        }
        guard let pathText, fields["body"] == nil || body != nil, fields["graphql"] == nil || graphql != nil,
            fields["websocket"] == nil || webSocket != nil
        else {
            return nil
        }
        var pattern = RequestPattern(
            method: method, path: PathPattern(pathText), query: query, headers: headers, body: body, graphql: graphql)
        pattern.webSocket = webSocket
        return pattern
    }

    mutating func matchers(_ value: JSONValue?, at path: String) -> [(name: String, matcher: ValueMatcher)] {
        guard let value, let fields = object(value, at: path, known: nil) else { return [] }
        return fields.keys.sorted().compactMap { name in
            matcher(fields[name]!, at: Self.child(path, name)).map { (name, $0) }
        }
    }

    /// A string (exact), `{"matches": REGEX}`, `{"present": true}` or `{"absent": true}`.
    mutating func matcher(_ value: JSONValue, at keyPath: String) -> ValueMatcher? {
        switch value {
        case .string(let exact):
            return .exact(exact)
        case .object(let options) where options.count == 1:
            switch (options.keys.first, options.values.first) {
            case ("matches", .string(let pattern)):
                do {
                    return .matches(try ValueMatcher.Pattern(pattern))
                } catch {
                    report("\(keyPath).matches", "invalid regular expression \(pattern.debugDescription)")
                    return nil
                }
            case ("present", .bool(true)): return .present
            case ("absent", .bool(true)): return .absent
            default: break
            }
        default: break
        }
        report(keyPath, "must be a string, {\"matches\": REGEX}, {\"present\": true} or {\"absent\": true}")
        return nil
    }

    private mutating func readVariants(_ value: JSONValue?, at path: String) -> [String: StubVariant]? {
        guard let value else {
            report(path, "missing")
            return nil
        }
        guard let fields = object(value, at: path, known: nil) else { return nil }
        var partials: [String: PartialVariant] = [:]
        for name in fields.keys.sorted() {
            if !StubCatalog.isValidName(name) {
                report(Self.child(path, name), "variant names must be letters, digits, '.', '_' or '-'")
            }
            if let partial = readVariant(fields[name]!, at: Self.child(path, name)) { partials[name] = partial }
        }
        var variants: [String: StubVariant] = [:]
        for name in partials.keys.sorted() {
            if let resolved = resolve(name, in: partials, at: path, visiting: []) {
                if let problem = resolved.streamProblem {
                    report(Self.child(path, name), problem)
                } else {
                    variants[name] = resolved.build()
                }
            }
        }
        return variants.count == partials.count && partials.count == fields.count ? variants : nil
    }

    private mutating func resolve(
        _ name: String, in partials: [String: PartialVariant], at path: String, visiting: [String]
    ) -> PartialVariant? {
        guard let partial = partials[name] else { return nil }
        guard let base = partial.like else { return partial }
        if visiting.contains(name) || base == name {
            report(Self.child(path, name) + ".like", "cycle: \((visiting + [name, base]).joined(separator: " -> "))")
            return nil
        }
        guard partials[base] != nil else {
            report(Self.child(path, name) + ".like", "no variant named \(base.debugDescription)")
            return nil
        }
        return resolve(base, in: partials, at: path, visiting: visiting + [name]).map(partial.inheriting)
    }

    private mutating func readVariant(_ value: JSONValue, at path: String) -> PartialVariant? {
        let known = [
            "status", "headers", "body", "bodyFile", "template", "delayMs", "fault", "like", "generated",
            "firstByteDelayMs", "throttle", "network", "chunked", "faults", "events", "eventsFile", "keepAliveMs",
            "dropAfterEvents", "script", "turn",
        ]
        guard let fields = object(value, at: path, known: known) else { return nil }
        var variant = PartialVariant()
        var valid = true
        if let value = fields["status"] {
            variant.status = integer(value, at: "\(path).status", in: 100...599)
            valid = valid && variant.status != nil
        }
        if let value = fields["headers"], let headers = object(value, at: "\(path).headers", known: nil) {
            var list = HTTPHeaders()
            for name in headers.keys.sorted() {
                guard !name.isEmpty, name.utf8.allSatisfy(HTTPSyntax.isTokenByte) else {
                    report(Self.child("\(path).headers", name), "invalid header name")
                    valid = false
                    continue
                }
                if name.caseInsensitiveEquals("Content-Length") || name.caseInsensitiveEquals("Transfer-Encoding") {
                    report(
                        Self.child("\(path).headers", name),
                        "set by the server from the body; remove it (use \"fault\" to break framing)")
                    valid = false
                }
                if let text = string(headers[name], at: Self.child("\(path).headers", name), required: true) {
                    if text.utf8.contains(where: { $0 < 0x20 && $0 != 0x09 }) {
                        report(
                            Self.child("\(path).headers", name), "control characters are not allowed in header values")
                        valid = false
                    }
                    list.add(name, text)
                }
            }
            variant.headers = list
        }
        if fields["body"] != nil && fields["bodyFile"] != nil {
            report(path, "has both \"body\" and \"bodyFile\"; keep one")
            valid = false
        }
        if let body = string(fields["body"], at: "\(path).body") {
            variant.body = [UInt8](body.utf8)
            variant.inferredType =
                body.isEmpty
                ? "text/plain; charset=utf-8"
                : Self.looksLikeJSON(body) ? "application/json" : "text/plain; charset=utf-8"
        }
        if let name = string(fields["bodyFile"], at: "\(path).bodyFile") {
            if let bytes = readBodyFile(name, at: "\(path).bodyFile") {
                variant.body = bytes
                variant.inferredType = MIMEType.forFile(name)
            } else {
                valid = false
            }
        }
        if let value = fields["template"] {
            if case .bool(let flag) = value {
                variant.template = flag
            } else {
                report("\(path).template", "must be true or false")
            }
        }
        // `generated` marks a variant a recorder or importer made up (`bad`, `nil`) rather than recorded: contract
        // validation skips it; it changes no answer.
        if let value = fields["generated"], case .bool(let flag) = value {
            variant.generated = flag
        } else if fields["generated"] != nil {
            report("\(path).generated", "must be true or false")
        }
        if let value = fields["delayMs"] {
            variant.delayMs = integer(value, at: "\(path).delayMs", in: 0...600_000)
            valid = valid && variant.delayMs != nil
        }
        if let name = string(fields["fault"], at: "\(path).fault") {
            variant.fault = StubVariant.Fault(rawValue: name)
            if variant.fault == nil {
                let names = StubVariant.Fault.allCases.map(\.rawValue).joined(separator: ", ")
                report("\(path).fault", "unknown fault \(name.debugDescription); use one of \(names)")
                valid = false
            }
        }
        variant.like = string(fields["like"], at: "\(path).like")
        valid = readNetwork(fields, into: &variant, at: path) && valid
        valid = readEvents(fields, into: &variant, at: path) && valid
        valid = readTurn(fields, into: &variant, at: path) && valid
        if let value = fields["script"] {
            variant.script = readScript(value, at: "\(path).script")
            valid = valid && variant.script != nil
        }
        return valid ? variant : nil
    }

    /// The bytes of a body file, which must lie inside the fixtures root.
    mutating func readBodyFile(_ name: String, at path: String) -> [UInt8]? {
        guard !name.isEmpty, !name.hasPrefix("/") else {
            report(path, "must be a path relative to \(api)/")
            return nil
        }
        let url = folder.appendingPathComponent(name).standardizedFileURL.resolvingSymlinksInPath()
        guard url.path.hasPrefix(root.path + "/") else {
            report(path, "\(name) is outside the fixtures folder")
            return nil
        }
        guard FileManager.default.fileExists(atPath: url.path), !FileManager.default.isFolder(atPath: url.path) else {
            report(path, "no such file \(name)")
            return nil
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            report(path, "cannot read \(name)")
            return nil
        }
        return [UInt8](data)
    }

    private static func looksLikeJSON(_ text: String) -> Bool {
        let first = text.first { !$0.isWhitespace }
        return first == "{" || first == "["
    }

    private static func describe(_ error: any Error) -> String {
        guard case DecodingError.dataCorrupted(let context) = error else { return "\(error)" }
        return context.underlyingError.map { "\(context.debugDescription) \($0)" } ?? context.debugDescription
    }

    /// The key path of `key` under `path` (`JSONValue.keyPath(_:_:)`).
    static func child(_ path: String, _ key: String) -> String { JSONValue.keyPath(path, key) }

    // MARK: Typed access that records a problem on a mismatch

    mutating func report(_ keyPath: String, _ message: String) {
        problems.append(FixtureProblem(file: file, keyPath: keyPath, message: message))
    }

    mutating func object(_ value: JSONValue, at path: String, known: [String]?) -> [String: JSONValue]? {
        guard case .object(let fields) = value else {
            report(path, "must be an object, not \(value.kind)")
            return nil
        }
        if let known {
            for key in fields.keys.sorted() where !known.contains(key) {
                report(Self.child(path, key), "unknown key (known: \(known.joined(separator: ", ")))")
            }
        }
        return fields
    }

    mutating func string(_ value: JSONValue?, at path: String, required: Bool = false) -> String? {
        switch value {
        case .string(let text): return text
        case nil:
            if required { report(path, "missing") }
            return nil
        case let other?:
            report(path, "must be a string, not \(other.kind)")
            return nil
        }
    }

    mutating func integer(_ value: JSONValue, at path: String, in range: ClosedRange<Int>) -> Int? {
        guard case .number(let number) = value, number.rounded() == number, range.contains(Int(exactly: number) ?? -1)
        else {
            report(path, "must be an integer in \(range.lowerBound)...\(range.upperBound)")
            return nil
        }
        return Int(number)
    }
}

/// A variant as written, before `like` fills in what it leaves out.
struct PartialVariant {
    package var status: Int?
    var headers: HTTPHeaders?
    var body: [UInt8]?
    var inferredType: String?
    var template: Bool?
    var delayMs: Int?
    package var fault: StubVariant.Fault?
    var firstByteDelayMs: Int?
    var pacing: Pacing?
    var faults: RandomFaults?
    var like: String?
    /// The stream's events (`events`, `eventsFile`); a body and events replace each other through `like`.
    var events: [ServerSentEvent]?
    /// The mutants that follow the events' grammar, for events rendered from a turn.
    var grammar: [Mutation] = []
    /// The format a turn was rendered in.
    var turnFormat: (format: TurnFormat, streaming: TurnFormat.Streaming)?
    var keepAliveMs: Int?
    var dropAfterEvents: Int?
    /// A WebSocket stub's script.
    var script: WebSocketScript?
    /// Its own flag only: a variant `like` a generated one is written by hand.
    var generated = false

    /// This variant over `base`: its own fields win; header fields merge by name.
    func inheriting(_ base: PartialVariant) -> PartialVariant {
        var merged = base
        merged.like = nil
        merged.generated = generated
        if let status { merged.status = status }
        if let headers {
            var combined = base.headers ?? HTTPHeaders()
            for (name, value) in headers { combined.set(name, value) }
            merged.headers = combined
        }
        if let body {
            merged.body = body
            merged.inferredType = inferredType
            (merged.events, merged.keepAliveMs, merged.dropAfterEvents) = (nil, nil, nil)
            merged.grammar = []
            merged.turnFormat = turnFormat
        }
        if let events {
            merged.events = events
            merged.grammar = grammar
            merged.turnFormat = turnFormat
            merged.body = nil
            merged.inferredType = nil
        }
        if let keepAliveMs { merged.keepAliveMs = keepAliveMs }
        if let script { merged.script = script }
        if let dropAfterEvents { merged.dropAfterEvents = dropAfterEvents }
        if let template { merged.template = template }
        if let delayMs { merged.delayMs = delayMs }
        if let fault { merged.fault = fault }
        if let firstByteDelayMs { merged.firstByteDelayMs = firstByteDelayMs }
        if let pacing { merged.pacing = pacing }
        if let faults { merged.faults = faults }
        return merged
    }

    func build() -> StubVariant {
        var headers = self.headers ?? HTTPHeaders()
        let stream = events.map {
            EventStream(events: $0, keepAliveMs: keepAliveMs, dropAfterEvents: dropAfterEvents, grammar: grammar)
        }
        // An empty body gets no type made up for it (RFC 9110, 8.3: a type describes content).
        let empty = stream == nil && (body ?? []).isEmpty && !generated && script == nil && template != true
        if headers["Content-Type"] == nil, !empty {
            headers.add(
                "Content-Type", stream != nil ? "text/event-stream" : inferredType ?? "text/plain; charset=utf-8")
        }
        if stream != nil, headers["Cache-Control"] == nil { headers.add("Cache-Control", "no-cache") }
        var variant = StubVariant(
            status: status ?? 200, headers: headers.map { HeaderField(name: $0.name, value: $0.value) },
            body: stream?.wire ?? body ?? [], template: template ?? false,
            delayMs: delayMs ?? 0, fault: fault, firstByteDelayMs: firstByteDelayMs ?? 0, pacing: pacing,
            faults: faults, generated: generated)
        variant.events = stream
        variant.script = script
        variant.turnFormat = turnFormat
        return variant
    }
}

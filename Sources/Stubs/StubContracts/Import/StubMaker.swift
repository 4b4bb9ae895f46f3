import HTTPMessages
import JSONModel
import StubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One operation's stub for `OpenAPIImporter`: its `stubs.json` entry and its body files.
struct StubMaker {
    let document: OpenAPIDocument
    let operation: OpenAPIOperation
    let name: String
    private(set) var files: [(name: String, bytes: [UInt8])] = []
    private(set) var variantNames: [String] = []
    private var variants: [String: JSONValue] = [:]

    init(document: OpenAPIDocument, operation: OpenAPIOperation, name: String) {
        self.document = document
        self.operation = operation
        self.name = name
    }

    /// An answer the document describes: status, media type and body (nil for no body).
    struct Answer {
        var status: Int
        var mediaType: String?
        var body: JSONValue?
        /// The example's name where `examples` named it.
        var exampleName: String?
    }

    /// The stub's entry; fills `files` with its bodies.
    mutating func stub(spec: String) throws(ContractError) -> JSONValue {
        var request: [String: JSONValue] = ["method": .string(operation.method), "path": .string(requestPath)]
        var query: [String: JSONValue] = [:]
        for parameter in operation.parameters where parameter.location == "query" && parameter.required {
            query[parameter.name] = .object(["present": .bool(true)])
        }
        if !query.isEmpty { request["query"] = .object(query) }

        let successes = operation.responses.filter { $0.status.hasPrefix("2") }
        let success = successes.first { $0.status == "200" } ?? successes.first
        var good = Answer(status: 200, mediaType: nil, body: nil)
        if let success {
            let answers = try answers(for: success.status, success.node, generate: true)
            good = answers.first ?? Answer(status: Self.status(success.status), mediaType: nil, body: nil)
            add("good", good, generated: false)
            for extra in answers.dropFirst() { add(extra.exampleName ?? success.status, extra, generated: false) }
        } else {
            add("good", good, generated: false)
        }
        for (status, node) in operation.responses where status != success?.status {
            for answer in try answers(for: status, node, generate: false) {
                add(answer.exampleName ?? status, answer, generated: false)
            }
        }
        addGenerated(from: good)
        var entry: [String: JSONValue] = [
            "name": .string(name), "request": .object(request), "variants": .object(variants),
        ]
        var contract: [String: JSONValue] = ["spec": .string(spec)]
        if let id = operation.operationId {
            contract["operationId"] = .string(id)
        } else {
            contract["operation"] = .string(operation.route)
        }
        entry["openapi"] = .object(contract)
        return .object(entry)
    }

    /// The server's path, then the template; a segment that holds a parameter among other text becomes that
    /// parameter (a stub's `{name}` fills a whole segment).
    var requestPath: String {
        let segments = operation.fullPath.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            guard segment.contains("{"), !(segment.hasPrefix("{") && segment.hasSuffix("}")),
                let open = segment.firstIndex(of: "{"), let close = segment[open...].firstIndex(of: "}")
            else { return String(segment) }
            return String(segment[open...close])
        }
        return segments.joined(separator: "/")
    }

    /// The answers a response documents: each example (named where `examples` names them), else the schema's
    /// example, else (for `generate`) one made from the schema; a response without content is one empty answer.
    private func answers(for statusKey: String, _ response: OpenAPIDocument.Node, generate: Bool)
        throws(ContractError) -> [Answer]
    {
        let status = Self.status(statusKey)
        guard let content = response["content"], let (mediaType, media) = Self.preferredMedia(content) else {
            return generate ? [Answer(status: status, mediaType: nil, body: nil)] : []
        }
        if let example = media["example"] {
            return [Answer(status: status, mediaType: mediaType, body: example.value)]
        }
        var named: [Answer] = []
        for (exampleName, exampleNode) in media["examples"]?.members ?? [] {
            let example = try document.resolve(exampleNode)
            if let value = example["value"] {
                named.append(Answer(status: status, mediaType: mediaType, body: value.value, exampleName: exampleName))
            }
        }
        if !named.isEmpty { return named }
        guard let schema = media["schema"] else {
            return generate ? [Answer(status: status, mediaType: mediaType, body: nil)] : []
        }
        let resolved = try document.resolve(schema)
        if let example = resolved["example"] {
            return [Answer(status: status, mediaType: mediaType, body: example.value)]
        }
        guard generate else { return [] }
        var generator = ExampleGenerator(document: document)
        return [Answer(status: status, mediaType: mediaType, body: generator.value(for: schema))]
    }

    /// The media type answers use: JSON first, then the first listed.
    static func preferredMedia(_ content: OpenAPIDocument.Node) -> (String, OpenAPIDocument.Node)? {
        let members = content.members
        let json = members.first { Self.isJSON($0.key) || $0.key == "*/*" }
        return (json ?? members.first).map { ($0.key, $0.node) }
    }

    /// Whether bodies of `mediaType` are JSON: `application/json`, `+json`, and `text/javascript` (iTunes's label
    /// for its JSON). `*/*` is not: it says nothing about the body.
    static func isJSON(_ mediaType: String) -> Bool {
        let type = OpenAPIDocument.Node.bare(mediaType)
        return type == "application/json" || type.hasSuffix("+json") || type == "text/javascript"
    }

    /// `200` -> 200, `4XX` -> 400, `default` -> 500.
    static func status(_ key: String) -> Int {
        if let status = Int(key), (100...599).contains(status) { return status }
        if let first = key.first?.wholeNumberValue, (1...5).contains(first) { return first * 100 }
        return 500
    }

    private mutating func add(_ variant: String, _ answer: Answer, generated: Bool) {
        var variantName = OpenAPIImporter.slug(variant)
        // `bad` and `nil` are the generated variants' names; an example named so keeps its status beside it.
        if variantName.isEmpty || variants[variantName] != nil || ["bad", "nil"].contains(variantName) {
            variantName = "\(variantName)-\(answer.status)"
        }
        while variants[variantName] != nil { variantName += "-2" }
        var fields: [String: JSONValue] = ["status": .number(Double(answer.status))]
        let mediaType = answer.mediaType.map { $0 == "*/*" ? "application/json" : $0 }
        if let mediaType { fields["headers"] = .object(["Content-Type": .string(mediaType)]) }
        if let body = answer.body {
            let file = "\(name).\(variantName).\(Self.fileExtension(mediaType ?? ""))"
            files.append((file, Self.bytes(of: body, mediaType: mediaType ?? "")))
            fields["bodyFile"] = .string(file)
        } else {
            fields["body"] = .string("")
        }
        if generated { fields["generated"] = .bool(true) }
        variants[variantName] = .object(fields)
        variantNames.append(variantName)
    }

    /// `bad` (the first half of `good`'s body: cut short, as a dropped answer is) and `nil` (an empty 200).
    private mutating func addGenerated(from good: Answer) {
        let mediaType = good.mediaType.map { $0 == "*/*" ? "application/json" : $0 } ?? "application/json"
        let goodBytes = good.body.map { Self.bytes(of: $0, mediaType: mediaType) } ?? []
        let badBytes = goodBytes.count > 1 ? Array(goodBytes.prefix(goodBytes.count / 2)) : Array("{".utf8)
        let badFile = "\(name).bad.\(Self.fileExtension(mediaType))"
        files.append((badFile, badBytes))
        let headers = JSONValue.object(["Content-Type": .string(mediaType)])
        variants["bad"] = .object([
            "status": .number(Double(good.body == nil ? 200 : good.status)), "headers": headers,
            "bodyFile": .string(badFile), "generated": .bool(true),
        ])
        variants["nil"] = .object([
            "status": .number(200), "headers": headers, "body": .string(""), "generated": .bool(true),
        ])
        variantNames += ["bad", "nil"]
    }

    /// The body's bytes: JSON text for a JSON media type (a string that already holds JSON as it is), a string's
    /// own text otherwise.
    static func bytes(of body: JSONValue, mediaType: String) -> [UInt8] {
        guard case .string(let text) = body else { return Array((body.prettyText + "\n").utf8) }
        if !isJSON(mediaType) { return Array(text.utf8) }
        let holdsJSON = (try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))).map { value in
            if case .array = value { return true }
            if case .object = value { return true }
            return false
        }
        return holdsJSON == true ? Array(text.utf8) : Array((body.prettyText + "\n").utf8)
    }

    static func fileExtension(_ mediaType: String) -> String {
        let type = mediaType.lowercased()
        if isJSON(type) { return "json" }
        if type.contains("xml") { return "xml" }
        if type.contains("html") { return "html" }
        if type.hasPrefix("text/") { return "txt" }
        return "bin"
    }
}

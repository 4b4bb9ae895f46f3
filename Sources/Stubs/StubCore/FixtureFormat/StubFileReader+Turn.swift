import JSONModel

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reading a variant's assistant turn: `"turn": {"file": "turn.json", "format": "anthropic", "stream": true}` (or
/// the turn's own keys in place of `file`), rendered in the format as the variant's body or events.
extension StubFileReader {
    /// Fills `variant`'s body or events from its `turn`; false when the turn is wrong.
    mutating func readTurn(_ fields: [String: JSONValue], into variant: inout PartialVariant, at path: String) -> Bool {
        guard let value = fields["turn"] else { return true }
        let before = problems.count
        let turnPath = "\(path).turn"
        for key in ["body", "bodyFile", "events", "eventsFile", "template"] where fields[key] != nil {
            report(Self.child(path, key), "a turn's answer is made from the turn; remove \(key)")
        }
        let known = ["file", "format", "stream", "includeUsage"] + Self.turnKeys
        guard let options = object(value, at: turnPath, known: known) else { return false }
        let formats = TurnFormat.allCases.map(\.rawValue).joined(separator: ", ")
        let name = string(options["format"], at: "\(turnPath).format", required: true)
        let format = name.flatMap(TurnFormat.init(rawValue:))
        if let name, format == nil {
            report("\(turnPath).format", "unknown format \(name.debugDescription); use one of \(formats)")
        }
        var streaming = TurnFormat.Streaming.none
        switch options["stream"] {
        case nil, .bool(false)?: break
        case .bool(true)?: streaming = .sse
        case .string("json-array")? where format == .gemini: streaming = .jsonArray
        default:
            report("\(turnPath).stream", "must be true, false or (for gemini) \"json-array\"")
        }
        var includeUsage = true
        if let value = options["includeUsage"] {
            if case .bool(let flag) = value {
                includeUsage = flag
            } else {
                report("\(turnPath).includeUsage", "must be true or false")
            }
        }
        var turnFields = options.filter { Self.turnKeys.contains($0.key) }
        var fieldsPath = turnPath
        if let file = string(options["file"], at: "\(turnPath).file") {
            // Beside a file, only `finish` may be given: the same turn ended another way.
            let overrides = turnFields.filter { $0.key == "finish" }
            if turnFields.count > overrides.count {
                report(turnPath, "has both \"file\" and the turn's own keys; keep one (only finish may change it)")
            } else if let bytes = readBodyFile(file, at: "\(turnPath).file") {
                do {
                    let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
                    turnFields = (object(decoded, at: file, known: Self.turnKeys) ?? [:]).merging(overrides) { $1 }
                    fieldsPath = file
                } catch {
                    report("\(turnPath).file", "\(file) is not JSON: \(error)")
                }
            }
        }
        guard problems.count == before, let format, let turn = readAssistantTurn(turnFields, at: fieldsPath) else {
            return false
        }
        variant.turnFormat = (format, streaming)
        switch streaming {
        case .sse:
            variant.events = format.events(turn, includeUsage: includeUsage)
            variant.grammar = TurnMutations.of(turn, format, includeUsage: includeUsage)
            variant.body = nil
        case .none:
            variant.body = Array(format.body(turn).text.utf8)
            variant.inferredType = "application/json"
        case .jsonArray:
            variant.body = Array(format.jsonArray(turn).text.utf8)
            variant.inferredType = "application/json"
        }
        return true
    }

    static let turnKeys = ["id", "model", "created", "text", "toolCalls", "finish", "usage"]

    /// `{"id": "t1", "model": "m", "text": ["Here", {"text": "'s", "delayMs": 40}], "toolCalls": [{"id": "call_1",
    /// "name": "find", "arguments": ["{\"q\":", "\"x\"}"]}], "finish": "tool-calls", "usage": {"input": 9,
    /// "output": 12}}`.
    private mutating func readAssistantTurn(_ fields: [String: JSONValue], at path: String) -> AssistantTurn? {
        let before = problems.count
        let id = string(fields["id"], at: Self.child(path, "id"), required: true)
        let model = string(fields["model"], at: Self.child(path, "model"), required: true)
        let created = fields["created"].flatMap { integer($0, at: Self.child(path, "created"), in: 0...9_999_999_999) }
        var text: [AssistantTurn.Piece] = []
        if let value = fields["text"] {
            if case .array(let items) = value {
                text = items.enumerated().compactMap { readPiece($1, at: "\(Self.child(path, "text"))[\($0)]") }
            } else {
                report(Self.child(path, "text"), "must be an array of pieces such as \"Here\" or {\"text\": \"'s\"}")
            }
        }
        var calls: [AssistantTurn.ToolCall] = []
        if let value = fields["toolCalls"] {
            if case .array(let items) = value {
                calls = items.enumerated().compactMap {
                    readToolCall($1, at: "\(Self.child(path, "toolCalls"))[\($0)]")
                }
            } else {
                report(Self.child(path, "toolCalls"), "must be an array of tool calls")
            }
        }
        var finish: AssistantTurn.Finish?
        if let name = string(fields["finish"], at: Self.child(path, "finish")) {
            finish = AssistantTurn.Finish(rawValue: name)
            if finish == nil {
                let names = AssistantTurn.Finish.allCases.map(\.rawValue).joined(separator: ", ")
                report(Self.child(path, "finish"), "unknown finish \(name.debugDescription); use one of \(names)")
            }
        }
        var usage = AssistantTurn.Usage(input: 0, output: 0)
        if let value = fields["usage"],
            let counts = object(value, at: Self.child(path, "usage"), known: ["input", "output"])
        {
            let usagePath = Self.child(path, "usage")
            usage.input = counts["input"].flatMap { integer($0, at: "\(usagePath).input", in: 0...100_000_000) } ?? 0
            usage.output = counts["output"].flatMap { integer($0, at: "\(usagePath).output", in: 0...100_000_000) } ?? 0
        }
        if text.isEmpty, calls.isEmpty, problems.count == before {
            report(path, "a turn needs text or a tool call")
        }
        guard problems.count == before, let id, let model else { return nil }
        return AssistantTurn(
            id: id, model: model, created: created ?? 1_765_000_000, text: text, toolCalls: calls, finish: finish,
            usage: usage)
    }

    /// `"text"`, or `{"text": "text", "delayMs": 40}`.
    private mutating func readPiece(_ value: JSONValue, at path: String) -> AssistantTurn.Piece? {
        if case .string(let text) = value { return AssistantTurn.Piece(text) }
        guard let fields = object(value, at: path, known: ["text", "delayMs"]),
            let text = string(fields["text"], at: "\(path).text", required: true)
        else { return nil }
        let delay = fields["delayMs"].flatMap { integer($0, at: "\(path).delayMs", in: 0...600_000) }
        return AssistantTurn.Piece(text, delayMs: delay ?? 0)
    }

    /// `{"id": "call_1", "name": "find", "arguments": ["{\"q\":", "\"x\"}"]}`: the pieces must join into JSON.
    private mutating func readToolCall(_ value: JSONValue, at path: String) -> AssistantTurn.ToolCall? {
        guard let fields = object(value, at: path, known: ["id", "name", "arguments"]) else { return nil }
        let before = problems.count
        let id = string(fields["id"], at: "\(path).id", required: true)
        let name = string(fields["name"], at: "\(path).name", required: true)
        var pieces: [AssistantTurn.Piece] = []
        if case .array(let items)? = fields["arguments"], !items.isEmpty {
            pieces = items.enumerated().compactMap { readPiece($1, at: "\(path).arguments[\($0)]") }
            let joined = pieces.map(\.text).joined()
            if pieces.count == items.count,
                (try? JSONDecoder().decode(JSONValue.self, from: Data(joined.utf8))).map({
                    if case .object = $0 { true } else { false }
                }) != true
            {
                report("\(path).arguments", "the pieces must join into a JSON object; they join into \(joined)")
            }
        } else {
            report("\(path).arguments", "must be a non-empty array of pieces of the arguments' JSON text")
        }
        guard problems.count == before, let id, let name else { return nil }
        return AssistantTurn.ToolCall(id: id, name: name, arguments: pieces)
    }
}

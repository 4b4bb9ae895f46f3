import HTTPMessages
import JSONModel

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads a model API's answer back into the turn it carries, holding it to the format's grammar as `TurnFormat`
/// writes it: the events of a stream in their documented order, or a whole answer. What the recorder makes a turn
/// fixture of, the drift check holds a recording to, and the fuzz target checks every rendering against.
package enum TurnReader {
    /// Where an answer leaves its format's grammar: `event 4 (content_block_delta): block 3 was never started`.
    package struct Problem: Error, Equatable, CustomStringConvertible {
        package var message: String
        package var description: String { message }

        package init(_ message: String) {
            self.message = message
        }
    }

    /// The turn `events` stream in `format`.
    package static func read(_ events: [ServerSentEvent], as format: TurnFormat) throws(Problem) -> AssistantTurn {
        var reading = Reading(format)
        let dispatched = events.filter(\.isEvent)
        for (index, event) in dispatched.enumerated() {
            let name = event.lines.compactMap { line -> String? in
                guard !EventStreamField.isComment(line) else { return nil }
                let (field, value) = EventStreamField.parse(line)
                return field == "event" ? value : nil
            }.last
            let data = event.lines.compactMap { line -> String? in
                guard !EventStreamField.isComment(line) else { return nil }
                let (field, value) = EventStreamField.parse(line)
                return field == "data" ? value : nil
            }.joined(separator: "\n")
            do {
                try reading.take(name: name, data: data, delayMs: event.delayMs, last: index == dispatched.count - 1)
            } catch {
                throw Problem("event \(index + 1)\(name.map { " (\($0))" } ?? ""): \(error.message)")
            }
        }
        return try reading.turn()
    }

    /// The format `events` follow and the turn they carry, if they follow one (what the recorder writes a turn
    /// fixture of).
    package static func recognize(_ events: [ServerSentEvent]) -> (format: TurnFormat, turn: AssistantTurn)? {
        for format in TurnFormat.allCases {
            if let turn = try? read(events, as: format) { return (format, turn) }
        }
        return nil
    }

    /// The format a whole answer `body` follows and the turn it carries, if it follows one.
    package static func recognize(whole body: [UInt8]) -> (format: TurnFormat, turn: AssistantTurn)? {
        for format in TurnFormat.allCases {
            if let turn = try? read(whole: body, as: format) { return (format, turn) }
        }
        return nil
    }

    /// The turn a whole answer `body` in `format` carries (for Gemini, also `streamGenerateContent`'s JSON array).
    package static func read(whole body: [UInt8], as format: TurnFormat) throws(Problem) -> AssistantTurn {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(body)) else {
            throw Problem("the answer is not JSON")
        }
        var reading = Reading(format)
        switch (format, value) {
        case (.gemini, .array(let chunks)):
            for (index, chunk) in chunks.enumerated() {
                try reading.gemini(chunk, delayMs: 0, last: index == chunks.count - 1)
            }
        case (.gemini, _): try reading.gemini(value, delayMs: 0, last: true)
        case (.openAIChat, _): try reading.chatCompletion(value)
        case (.openAIResponses, _): try reading.response(value)
        case (.anthropic, _): try reading.message(value)
        }
        return try reading.turn()
    }
}

/// A turn as it is read, part by part.
private struct Reading {
    let format: TurnFormat
    var id: String?
    var model: String?
    var created = 0
    var text: [AssistantTurn.Piece] = []
    var calls: [AssistantTurn.ToolCall] = []
    var finish: AssistantTurn.Finish?
    var usage = AssistantTurn.Usage(input: 0, output: 0)
    var ended = false
    var position = 0
    /// Anthropic's and Responses' blocks by index: nil for text, else the call's index; and whether each stopped.
    var blocks: [Int: (call: Int?, stopped: Bool)] = [:]
    var items: [String: Int] = [:]

    init(_ format: TurnFormat) {
        self.format = format
    }

    func turn() throws(TurnReader.Problem) -> AssistantTurn {
        guard let finish else { throw TurnReader.Problem("nothing says how the turn finished") }
        guard let id, let model else { throw TurnReader.Problem("no id or model") }
        guard !text.isEmpty || !calls.isEmpty else { throw TurnReader.Problem("neither text nor a tool call") }
        return AssistantTurn(
            id: id, model: model, created: created, text: text, toolCalls: calls, finish: finish, usage: usage)
    }

    mutating func take(name: String?, data: String, delayMs: Int, last: Bool) throws(TurnReader.Problem) {
        defer { position += 1 }
        guard !ended else { throw TurnReader.Problem("an event after the end") }
        switch format {
        case .openAIChat:
            guard name == nil || name == "message" else { throw TurnReader.Problem("a name; Chat events have none") }
            if data == "[DONE]" {
                guard last else { throw TurnReader.Problem("[DONE] before the last event") }
                ended = true
                return
            }
            try chatChunk(try Self.json(data), delayMs: delayMs)
            if last { throw TurnReader.Problem("the stream does not end with [DONE]") }
        case .gemini:
            guard name == nil || name == "message" else { throw TurnReader.Problem("a name; Gemini chunks have none") }
            try gemini(try Self.json(data), delayMs: delayMs, last: last)
        case .anthropic:
            let event = try Self.json(data)
            let type = try event.string("type")
            guard name == type else { throw TurnReader.Problem("named \(name ?? "nothing") but of type \(type)") }
            try anthropic(type, event, delayMs: delayMs)
            if last, type != "message_stop" { throw TurnReader.Problem("the stream does not end with message_stop") }
        case .openAIResponses:
            let event = try Self.json(data)
            let type = try event.string("type")
            guard name == type else { throw TurnReader.Problem("named \(name ?? "nothing") but of type \(type)") }
            guard try event.int("sequence_number") == position else {
                throw TurnReader.Problem("sequence_number is not \(position)")
            }
            try responses(type, event, delayMs: delayMs)
            if last, finish == nil { throw TurnReader.Problem("the stream does not end with response.completed") }
        }
    }

    static func json(_ text: String) throws(TurnReader.Problem) -> JSONValue {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else {
            throw TurnReader.Problem("data that is not JSON")
        }
        return value
    }

    // MARK: OpenAI Chat

    mutating func chatChunk(_ chunk: JSONValue, delayMs: Int) throws(TurnReader.Problem) {
        guard try chunk.string("object") == "chat.completion.chunk" else {
            throw TurnReader.Problem("object is not chat.completion.chunk")
        }
        try chatHead(chunk)
        let choices = try chunk.array("choices")
        guard let choice = choices.first else {
            let counts = try chunk.field("usage")
            usage = AssistantTurn.Usage(
                input: try counts.int("prompt_tokens"), output: try counts.int("completion_tokens"))
            return
        }
        let delta = try choice.field("delta")
        if case .string(let role)? = delta.optional("role") {
            guard position == 0, role == "assistant" else { throw TurnReader.Problem("a role after the first chunk") }
        }
        // The role's chunk carries an empty content as the renderer writes it; text beside the role is text.
        if case .string(let content)? = delta.optional("content"), delta.optional("role") == nil || !content.isEmpty {
            text.append(AssistantTurn.Piece(content, delayMs: delayMs))
        }
        if let toolCalls = delta.optional("tool_calls") {
            guard case .array(let items) = toolCalls else { throw TurnReader.Problem("tool_calls is not a list") }
            for item in items {
                let index = try item.int("index")
                let function = try item.field("function")
                if item.optional("id") != nil {
                    guard index == calls.count else { throw TurnReader.Problem("tool call \(index) out of order") }
                    // Arguments in the call's first chunk (some servers send a call whole) are its first piece.
                    let first = try function.optional("arguments").map { _ throws(TurnReader.Problem) in
                        try function.string("arguments")
                    }
                    calls.append(
                        AssistantTurn.ToolCall(
                            id: try item.string("id"), name: try function.string("name"),
                            arguments: (first ?? "").isEmpty ? [] : [AssistantTurn.Piece(first ?? "", delayMs: delayMs)]
                        ))
                } else {
                    guard calls.indices.contains(index) else {
                        throw TurnReader.Problem("arguments for tool call \(index), never started")
                    }
                    calls[index].arguments.append(
                        AssistantTurn.Piece(try function.string("arguments"), delayMs: delayMs))
                }
            }
        }
        if case .string(let reason)? = choice.optional("finish_reason") {
            guard finish == nil else { throw TurnReader.Problem("a second finish_reason") }
            finish = try Self.finish(
                reason,
                [
                    ("stop", .stop), ("length", .length), ("tool_calls", .toolCalls),
                    ("content_filter", .contentFilter),
                ])
        }
    }

    mutating func chatHead(_ object: JSONValue) throws(TurnReader.Problem) {
        let full = try object.string("id")
        guard full.hasPrefix("chatcmpl-") else { throw TurnReader.Problem("an id without chatcmpl-") }
        try same(&id, String(full.dropFirst(9)), "id")
        try same(&model, try object.string("model"), "model")
        created = try object.int("created")
    }

    mutating func chatCompletion(_ completion: JSONValue) throws(TurnReader.Problem) {
        guard try completion.string("object") == "chat.completion" else {
            throw TurnReader.Problem("object is not chat.completion")
        }
        try chatHead(completion)
        guard let choice = try completion.array("choices").first else { throw TurnReader.Problem("no choice") }
        let message = try choice.field("message")
        if case .string(let content)? = message.optional("content") { text = [AssistantTurn.Piece(content)] }
        if case .array(let items)? = message.optional("tool_calls") {
            for item in items {
                let function = try item.field("function")
                calls.append(
                    AssistantTurn.ToolCall(
                        id: try item.string("id"), name: try function.string("name"),
                        arguments: [AssistantTurn.Piece(try function.string("arguments"))]))
            }
        }
        finish = try Self.finish(
            try choice.string("finish_reason"),
            [
                ("stop", .stop), ("length", .length),
                ("tool_calls", .toolCalls), ("content_filter", .contentFilter),
            ])
        let counts = try completion.field("usage")
        usage = AssistantTurn.Usage(input: try counts.int("prompt_tokens"), output: try counts.int("completion_tokens"))
    }

    // MARK: OpenAI Responses

    mutating func responses(_ type: String, _ event: JSONValue, delayMs: Int) throws(TurnReader.Problem) {
        switch type {
        case "response.created", "response.in_progress":
            guard (type == "response.created") == (position == 0) else {
                throw TurnReader.Problem("response.created must come first, and only first")
            }
            try responseHead(try event.field("response"))
        case "response.output_item.added":
            let item = try event.field("item")
            let index = try event.int("output_index")
            guard blocks[index] == nil else { throw TurnReader.Problem("output \(index) added twice") }
            if try item.string("type") == "function_call" {
                items[try item.string("id")] = calls.count
                blocks[index] = (calls.count, false)
                calls.append(
                    AssistantTurn.ToolCall(id: try item.string("call_id"), name: try item.string("name"), arguments: [])
                )
            } else if try item.string("type") == "message" {
                blocks[index] = (nil, false)
            } else {
                // A reasoning item, a web search: a kind of output a turn does not hold.
                throw TurnReader.Problem("an output item of type \(try item.string("type"))")
            }
        case "response.content_part.added", "response.content_part.done", "response.output_text.done":
            guard blocks[try event.int("output_index")]?.call == .some(nil) else {
                throw TurnReader.Problem("text of an output that is not a message")
            }
        case "response.output_text.delta":
            guard let block = blocks[try event.int("output_index")], block.call == nil, !block.stopped else {
                throw TurnReader.Problem("text for an output never added or already done")
            }
            text.append(AssistantTurn.Piece(try event.string("delta"), delayMs: delayMs))
        case "response.function_call_arguments.delta":
            guard let call = items[try event.string("item_id")] else {
                throw TurnReader.Problem("arguments for an item never added")
            }
            calls[call].arguments.append(AssistantTurn.Piece(try event.string("delta"), delayMs: delayMs))
        case "response.function_call_arguments.done":
            guard let call = items[try event.string("item_id")],
                try event.string("arguments") == calls[call].argumentsText
            else { throw TurnReader.Problem("arguments done that differ from their deltas") }
        case "response.output_item.done":
            let index = try event.int("output_index")
            guard let block = blocks[index], !block.stopped else {
                throw TurnReader.Problem("output \(index) done twice")
            }
            blocks[index]?.stopped = true
        case "response.completed", "response.incomplete":
            let response = try event.field("response")
            try responseHead(response)
            try responseEnd(response)
            ended = true
        default:
            throw TurnReader.Problem("\(type) is not an event of openai-responses")
        }
    }

    mutating func responseHead(_ response: JSONValue) throws(TurnReader.Problem) {
        let full = try response.string("id")
        guard full.hasPrefix("resp_") else { throw TurnReader.Problem("an id without resp_") }
        try same(&id, String(full.dropFirst(5)), "id")
        try same(&model, try response.string("model"), "model")
        created = try response.int("created_at")
    }

    /// A finished response's status, reason and usage.
    mutating func responseEnd(_ response: JSONValue) throws(TurnReader.Problem) {
        switch try response.string("status") {
        case "completed": finish = calls.isEmpty ? .stop : .toolCalls
        case "incomplete":
            let reason = try response.field("incomplete_details").string("reason")
            finish = try Self.finish(reason, [("max_output_tokens", .length), ("content_filter", .contentFilter)])
        case let status: throw TurnReader.Problem("a finished response whose status is \(status)")
        }
        let counts = try response.field("usage")
        usage = AssistantTurn.Usage(input: try counts.int("input_tokens"), output: try counts.int("output_tokens"))
    }

    mutating func response(_ response: JSONValue) throws(TurnReader.Problem) {
        guard try response.string("object") == "response" else { throw TurnReader.Problem("object is not response") }
        try responseHead(response)
        for item in try response.array("output") {
            switch try item.string("type") {
            case "message":
                let parts = try item.array("content")
                text = try parts.map { part throws(TurnReader.Problem) in AssistantTurn.Piece(try part.string("text")) }
            case "function_call":
                calls.append(
                    AssistantTurn.ToolCall(
                        id: try item.string("call_id"), name: try item.string("name"),
                        arguments: [AssistantTurn.Piece(try item.string("arguments"))]))
            case let type: throw TurnReader.Problem("an output item of type \(type)")
            }
        }
        try responseEnd(response)
    }

    // MARK: Anthropic

    mutating func anthropic(_ type: String, _ event: JSONValue, delayMs: Int) throws(TurnReader.Problem) {
        switch type {
        case "message_start":
            guard position == 0 else { throw TurnReader.Problem("message_start after the first event") }
            let message = try event.field("message")
            try messageHead(message)
            usage.input = try message.field("usage").int("input_tokens")
        case "ping": break
        case "content_block_start":
            let index = try event.int("index")
            guard blocks[index] == nil else { throw TurnReader.Problem("block \(index) started twice") }
            let block = try event.field("content_block")
            switch try block.string("type") {
            case "text": blocks[index] = (nil, false)
            case "tool_use":
                blocks[index] = (calls.count, false)
                calls.append(
                    AssistantTurn.ToolCall(id: try block.string("id"), name: try block.string("name"), arguments: []))
            case let kind: throw TurnReader.Problem("a block of type \(kind)")
            }
        case "content_block_delta":
            let index = try event.int("index")
            guard let block = blocks[index], !block.stopped else {
                throw TurnReader.Problem("a delta for block \(index), never started or stopped")
            }
            let delta = try event.field("delta")
            switch (try delta.string("type"), block.call) {
            case ("text_delta", nil): text.append(AssistantTurn.Piece(try delta.string("text"), delayMs: delayMs))
            case ("input_json_delta", let call?):
                calls[call].arguments.append(AssistantTurn.Piece(try delta.string("partial_json"), delayMs: delayMs))
            case (let kind, _): throw TurnReader.Problem("a \(kind) in block \(index)")
            }
        case "content_block_stop":
            let index = try event.int("index")
            guard let block = blocks[index], !block.stopped else {
                throw TurnReader.Problem("block \(index) stopped twice or never started")
            }
            blocks[index]?.stopped = true
        case "message_delta":
            guard blocks.values.allSatisfy(\.stopped) else { throw TurnReader.Problem("a block never stopped") }
            finish = try Self.anthropicFinish(try event.field("delta").string("stop_reason"))
            usage.output = try event.field("usage").int("output_tokens")
        case "message_stop":
            guard finish != nil else { throw TurnReader.Problem("message_stop before message_delta") }
            ended = true
        default:
            throw TurnReader.Problem("\(type) is not an event of anthropic")
        }
    }

    mutating func messageHead(_ message: JSONValue) throws(TurnReader.Problem) {
        let full = try message.string("id")
        guard full.hasPrefix("msg_") else { throw TurnReader.Problem("an id without msg_") }
        try same(&id, String(full.dropFirst(4)), "id")
        try same(&model, try message.string("model"), "model")
    }

    static func anthropicFinish(_ reason: String) throws(TurnReader.Problem) -> AssistantTurn.Finish {
        try finish(
            reason,
            [("end_turn", .stop), ("max_tokens", .length), ("tool_use", .toolCalls), ("refusal", .contentFilter)])
    }

    mutating func message(_ message: JSONValue) throws(TurnReader.Problem) {
        guard try message.string("type") == "message" else { throw TurnReader.Problem("type is not message") }
        try messageHead(message)
        for block in try message.array("content") {
            switch try block.string("type") {
            case "text": text.append(AssistantTurn.Piece(try block.string("text")))
            case "tool_use":
                calls.append(
                    AssistantTurn.ToolCall(
                        id: try block.string("id"), name: try block.string("name"),
                        arguments: [AssistantTurn.Piece(OrderedJSON(try block.field("input")).text)]))
            case let kind: throw TurnReader.Problem("a block of type \(kind)")
            }
        }
        finish = try Self.anthropicFinish(try message.string("stop_reason"))
        let counts = try message.field("usage")
        usage = AssistantTurn.Usage(input: try counts.int("input_tokens"), output: try counts.int("output_tokens"))
    }

    // MARK: Gemini

    mutating func gemini(_ response: JSONValue, delayMs: Int, last: Bool) throws(TurnReader.Problem) {
        try same(&id, try response.string("responseId"), "responseId")
        try same(&model, try response.string("modelVersion"), "modelVersion")
        guard let candidate = try response.array("candidates").first else { throw TurnReader.Problem("no candidate") }
        for part in try candidate.field("content").array("parts") {
            if case .string(let piece)? = part.optional("text") {
                text.append(AssistantTurn.Piece(piece, delayMs: delayMs))
            } else if let call = part.optional("functionCall") {
                let arguments = OrderedJSON(try call.field("args")).text
                calls.append(
                    AssistantTurn.ToolCall(
                        id: "", name: try call.string("name"),
                        arguments: [AssistantTurn.Piece(arguments, delayMs: delayMs)]))
            } else {
                throw TurnReader.Problem("a part that is neither text nor functionCall")
            }
        }
        guard case .string(let reason)? = candidate.optional("finishReason") else {
            if last { throw TurnReader.Problem("the last chunk has no finishReason") }
            return
        }
        guard last else { throw TurnReader.Problem("finishReason before the last chunk") }
        switch reason {
        case "STOP": finish = calls.isEmpty ? .stop : .toolCalls
        case "MAX_TOKENS": finish = .length
        case "SAFETY": finish = .contentFilter
        default: throw TurnReader.Problem("finishReason \(reason)")
        }
        let counts = try response.field("usageMetadata")
        usage = AssistantTurn.Usage(
            input: try counts.int("promptTokenCount"), output: try counts.int("candidatesTokenCount"))
    }

    // MARK: Helpers

    static func finish(_ name: String, _ names: [(String, AssistantTurn.Finish)]) throws(TurnReader.Problem)
        -> AssistantTurn.Finish
    {
        guard let found = names.first(where: { $0.0 == name }) else { throw TurnReader.Problem("finish \(name)") }
        return found.1
    }

    /// Sets `value` the first time; later it must be the same.
    func same(_ value: inout String?, _ new: String, _ name: String) throws(TurnReader.Problem) {
        if let value, value != new { throw TurnReader.Problem("\(name) changed from \(value) to \(new)") }
        value = new
    }
}

extension JSONValue {
    fileprivate func optional(_ key: String) -> JSONValue? {
        guard case .object(let fields) = self, let value = fields[key], value != .null else { return nil }
        return value
    }

    fileprivate func field(_ key: String) throws(TurnReader.Problem) -> JSONValue {
        guard let value = optional(key) else { throw TurnReader.Problem("no \(key)") }
        return value
    }

    fileprivate func string(_ key: String) throws(TurnReader.Problem) -> String {
        guard case .string(let text) = try field(key) else { throw TurnReader.Problem("\(key) is not a string") }
        return text
    }

    fileprivate func int(_ key: String) throws(TurnReader.Problem) -> Int {
        guard case .number(let number) = try field(key), number.rounded() == number, abs(number) < 9.0e15 else {
            throw TurnReader.Problem("\(key) is not a whole number")
        }
        return Int(number)
    }

    fileprivate func array(_ key: String) throws(TurnReader.Problem) -> [JSONValue] {
        guard case .array(let items) = try field(key) else { throw TurnReader.Problem("\(key) is not a list") }
        return items
    }
}

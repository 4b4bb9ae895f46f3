import Foundation
import Testing

/// Builds an assistant turn from a model API's stream events as its provider documents them, carefully: a value of
/// the wrong type, a delta for a block never started, or an event out of sequence (Responses numbers them) is
/// `garbled`; a start sent again for a block already open counts once; an event of a kind it does not know is
/// skipped; the provider's error event ends the turn with its message.
struct TurnAssembler {
    enum Provider: String, CaseIterable, Sendable, Codable, CustomTestStringConvertible {
        case openAIChat, openAIResponses, anthropic, gemini
        var testDescription: String { rawValue }

        /// The stub of `AssistantFixtures` that streams this provider's turn.
        var stub: String {
            switch self {
            case .openAIChat: "openai-chat-stream"
            case .openAIResponses: "openai-responses-stream"
            case .anthropic: "anthropic-stream"
            case .gemini: "gemini-stream"
            }
        }

        var path: String {
            switch self {
            case .openAIChat: "/v1/chat/completions"
            case .openAIResponses: "/v1/responses"
            case .anthropic: "/v1/messages"
            case .gemini: "/v1beta/models/catalog-assistant-1:streamGenerateContent"
            }
        }
    }

    struct Call: Equatable {
        var key: String
        var name: String
        var arguments: String
    }

    enum Finish: Equatable {
        /// Complete: the text is whole, and the calls are to be run.
        case complete
        /// The output limit cut it.
        case cutShort
        /// A filter or a refusal ended it.
        case declined
    }

    enum Failure: Error, Equatable {
        case garbled(String)
        /// An event is missing (Responses numbers them).
        case lost
        /// The provider's error event: retry when it says it is busy.
        case providerError(String, busy: Bool)
    }

    let provider: Provider
    private(set) var text = ""
    private(set) var calls: [Call] = []
    private(set) var finish: Finish?
    private var sequence = 0
    private var lastData: String?
    /// Anthropic's content blocks by index: text, or the index in `calls`.
    private var blocks: [Int: Int?] = [:]
    /// Responses' function-call items by id: the index in `calls`.
    private var items: [String: Int] = [:]
    /// Responses' whole text and arguments, as its `.done` events repeat them, to check against the deltas.
    private var doneText: String?
    private var doneArguments: [String: String] = [:]

    init(_ provider: Provider) {
        self.provider = provider
    }

    /// Adds `event` to the turn.
    mutating func take(_ event: EventStreamParser.Event) throws(Failure) {
        defer { lastData = event.data }
        if event.data == "[DONE]", provider == .openAIChat { return }
        // An event of a kind the format does not send (a `ping` a proxy adds): Chat and Gemini send unnamed
        // events only, Responses names each `response.…` or `error`.
        switch provider {
        case .openAIChat, .gemini: guard event.type == "message" else { return }
        case .openAIResponses: guard event.type == "error" || event.type.hasPrefix("response.") else { return }
        case .anthropic: guard event.type != "ping" else { return }
        }
        guard case let object as [String: Any] = try? JSONSerialization.jsonObject(with: Data(event.data.utf8)) else {
            throw .garbled("an event that is not a JSON object")
        }
        if let error = object["error"] {
            let body = error as? [String: Any] ?? [:]
            let message = body["message"] as? String ?? "The assistant could not answer."
            let kind = (body["type"] ?? body["status"] ?? object["code"]) as? String ?? ""
            throw .providerError(
                message, busy: ["server_error", "overloaded_error", "UNAVAILABLE", "rate_limit_error"].contains(kind))
        }
        switch provider {
        case .openAIChat: try takeChat(object)
        case .openAIResponses: try takeResponses(object, data: event.data)
        case .anthropic: try takeAnthropic(object)
        case .gemini: try takeGemini(object)
        }
    }

    /// The turn once its stream has ended: how it finished; the whole text and arguments checked where the format
    /// repeats them.
    func ended() throws(Failure) -> Finish? {
        if let doneText, doneText != text { throw .garbled("text that differs from its deltas") }
        for (item, arguments) in doneArguments where items[item].map({ calls[$0].arguments }) != arguments {
            throw .garbled("arguments that differ from their deltas")
        }
        return finish
    }

    private static func string(_ value: Any?, _ what: String) throws(Failure) -> String {
        guard let text = value as? String else { throw .garbled("\(what) that is not a string") }
        return text
    }

    private mutating func takeChat(_ chunk: [String: Any]) throws(Failure) {
        guard let choices = chunk["choices"] as? [Any] else { throw .garbled("a chunk without choices") }
        guard let choice = choices.first else { return }  // The usage chunk.
        guard let choice = choice as? [String: Any], let delta = choice["delta"] as? [String: Any] else {
            throw .garbled("a choice without a delta")
        }
        if let content = delta["content"], !(content is NSNull) { text += try Self.string(content, "content") }
        if let toolCalls = delta["tool_calls"] {
            guard let toolCalls = toolCalls as? [[String: Any]] else {
                throw .garbled("tool calls that are not a list")
            }
            for call in toolCalls {
                guard let index = call["index"] as? Int, index >= 0 else { throw .garbled("a tool call without index") }
                let function = call["function"] as? [String: Any] ?? [:]
                if let id = call["id"] {
                    let id = try Self.string(id, "a tool call id")
                    if index < calls.count {
                        // The start again for a call already open: counted once.
                        guard calls[index].key == id else { throw .garbled("two tool calls at one index") }
                    } else if index == calls.count {
                        calls.append(
                            Call(key: id, name: try Self.string(function["name"], "a tool name"), arguments: ""))
                        continue
                    } else {
                        throw .garbled("a tool call index out of order")
                    }
                }
                guard index < calls.count else { throw .garbled("arguments for a tool call never started") }
                if let arguments = function["arguments"] {
                    calls[index].arguments += try Self.string(arguments, "arguments")
                }
            }
        }
        if let reason = choice["finish_reason"], !(reason is NSNull) {
            switch try Self.string(reason, "a finish reason") {
            case "stop", "tool_calls": finish = .complete
            case "length": finish = .cutShort
            default: finish = .declined
            }
        }
    }

    private mutating func takeResponses(_ event: [String: Any], data: String) throws(Failure) {
        if let number = event["sequence_number"] as? Int, number == sequence - 1, data == lastData { return }
        guard let number = event["sequence_number"] as? Int else { throw .garbled("an event without a number") }
        guard number == sequence else { throw .lost }
        sequence += 1
        switch event["type"] as? String {
        case "response.output_text.delta": text += try Self.string(event["delta"], "a text delta")
        case "response.output_text.done": doneText = try Self.string(event["text"], "the done text")
        case "response.output_item.added":
            let item = event["item"] as? [String: Any] ?? [:]
            guard item["type"] as? String == "function_call" else { return }
            let id = try Self.string(item["id"], "an item id")
            guard items[id] == nil else { return }
            items[id] = calls.count
            calls.append(
                Call(
                    key: try Self.string(item["call_id"], "a call id"),
                    name: try Self.string(item["name"], "a tool name"), arguments: ""))
        case "response.function_call_arguments.delta":
            guard let index = items[try Self.string(event["item_id"], "an item id")] else {
                throw .garbled("arguments for an item never added")
            }
            calls[index].arguments += try Self.string(event["delta"], "an arguments delta")
        case "response.function_call_arguments.done":
            doneArguments[try Self.string(event["item_id"], "an item id")] = try Self.string(
                event["arguments"], "the done arguments")
        case "response.completed":
            finish = .complete
        case "response.incomplete":
            let response = event["response"] as? [String: Any] ?? [:]
            let reason = (response["incomplete_details"] as? [String: Any])?["reason"] as? String
            finish = reason == "max_output_tokens" ? .cutShort : .declined
        case "response.failed":
            throw .providerError("The assistant could not answer.", busy: true)
        case "error":
            throw .providerError(event["message"] as? String ?? "The assistant could not answer.", busy: true)
        default: break
        }
    }

    private mutating func takeAnthropic(_ event: [String: Any]) throws(Failure) {
        switch event["type"] as? String {
        case "content_block_start":
            guard let index = event["index"] as? Int, let block = event["content_block"] as? [String: Any] else {
                throw .garbled("a block start without index or block")
            }
            switch block["type"] as? String {
            case "text":
                if blocks[index] == nil { blocks[index] = .some(nil) }
            case "tool_use":
                let id = try Self.string(block["id"], "a tool use id")
                if let open = blocks[index] {
                    guard let call = open, calls[call].key == id else { throw .garbled("two blocks at one index") }
                    return
                }
                blocks[index] = calls.count
                calls.append(Call(key: id, name: try Self.string(block["name"], "a tool name"), arguments: ""))
            default: break  // A block of a kind this screen does not show.
            }
        case "content_block_delta":
            guard let index = event["index"] as? Int, let block = blocks[index] else {
                throw .garbled("a delta for a block never started")
            }
            let delta = event["delta"] as? [String: Any] ?? [:]
            switch delta["type"] as? String {
            case "text_delta" where block == nil: text += try Self.string(delta["text"], "a text delta")
            case "input_json_delta":
                guard let call = block else { throw .garbled("arguments for a text block") }
                calls[call].arguments += try Self.string(delta["partial_json"], "a partial JSON delta")
            case "text_delta": throw .garbled("text for a tool block")
            default: break
            }
        case "message_delta":
            let delta = event["delta"] as? [String: Any] ?? [:]
            switch try Self.string(delta["stop_reason"], "a stop reason") {
            case "end_turn", "tool_use", "stop_sequence": finish = .complete
            case "max_tokens": finish = .cutShort
            default: finish = .declined
            }
        default: break  // message_start, content_block_stop, ping, message_stop, and kinds added later.
        }
    }

    private mutating func takeGemini(_ response: [String: Any]) throws(Failure) {
        guard let candidates = response["candidates"] as? [[String: Any]], let candidate = candidates.first else {
            throw .garbled("a chunk without candidates")
        }
        let content = candidate["content"] as? [String: Any] ?? [:]
        for part in content["parts"] as? [[String: Any]] ?? [] {
            if let piece = part["text"] { text += try Self.string(piece, "a text part") }
            if let call = part["functionCall"] {
                guard let call = call as? [String: Any], let args = call["args"] as? [String: Any],
                    let json = try? JSONSerialization.data(withJSONObject: args, options: .sortedKeys)
                else { throw .garbled("a function call without arguments") }
                let found = Call(
                    key: "", name: try Self.string(call["name"], "a function name"),
                    arguments: String(decoding: json, as: UTF8.self))
                // Gemini's calls have no id: the same call again (in this chunk or a chunk sent twice) runs once.
                if !calls.contains(found) { calls.append(found) }
            }
        }
        if let reason = candidate["finishReason"] {
            switch try Self.string(reason, "a finish reason") {
            case "STOP": finish = .complete
            case "MAX_TOKENS": finish = .cutShort
            default: finish = .declined
            }
        }
    }
}

import Foundation
import StubServer
import StubTestSupport
import TestTurns
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// MockData's assistant turn (`MockData/assistant/turn.json`: text in six pieces, one tool call whose arguments
/// come in four) as each provider's client reads it, over both transports: streamed and whole, every format parses
/// back into the same text, tool call, finish and usage with a reader written here from the provider's
/// documentation, and the streams' events come in the documented order.
// Ten minutes: under SWEEP=all (CI's sweep step) every sweep's cases start at once, and each case's clock runs while
// it waits its turn.
@Suite(.takesTurns(.heavy), .timeLimit(.minutes(10)))
struct ModelAPITurnTests {
    static let text = "Here's a dessert for tonight: Apam balik. Let me find its recipe."
    static var arguments: NSDictionary { ["dessert": "Apam balik", "servings": 2] }

    /// What a client made of an answer.
    struct Reading {
        var text = ""
        var calls: [(id: String, name: String, arguments: String)] = []
        var finish = ""
        var usage = (input: 0, output: 0)
        /// Each event's kind, in order: its name, or what its data holds.
        var kinds: [String] = []
    }

    enum Provider: String, CaseIterable, CustomTestStringConvertible {
        case openAIChat, openAIResponses, anthropic, gemini
        var testDescription: String { rawValue }

        func request(_ base: URL, stream: Bool, sse: Bool = true) -> URLRequest {
            let path: String
            switch self {
            case .openAIChat: path = "/v1/chat/completions"
            case .openAIResponses: path = "/v1/responses"
            case .anthropic: path = "/v1/messages"
            case .gemini:
                path =
                    "/v1beta/models/catalog-assistant-1:"
                    + (stream ? "streamGenerateContent" + (sse ? "?alt=sse" : "") : "generateContent")
            }
            var request = URLRequest(url: URL(string: base.absoluteString + path)!)
            request.httpMethod = "POST"
            request.timeoutInterval = 10
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            let body =
                self == .gemini ? #"{"contents": []}"# : #"{"model": "catalog-assistant-1", "stream": \#(stream)}"#
            request.httpBody = Data(body.utf8)
            return request
        }

        /// The forms of its answer: whole, streamed, and for Gemini streamed without `alt=sse` (a JSON array).
        var forms: [(stream: Bool, sse: Bool)] {
            [(false, true), (true, true)] + (self == .gemini ? [(true, false)] : [])
        }

        /// The finish as this provider names a turn that stops for its tool call.
        var toolFinish: String {
            switch self {
            case .openAIChat: "tool_calls"
            case .openAIResponses: "completed"
            case .anthropic: "tool_use"
            case .gemini: "STOP"
            }
        }
    }

    /// Server-Sent Events as `(event name, data)`, blank-line separated.
    static func events(_ body: Data) -> [(name: String?, data: String)] {
        String(decoding: body, as: UTF8.self).components(separatedBy: "\n\n").compactMap { block in
            var name: String?
            var data: [String] = []
            for line in block.components(separatedBy: "\n") {
                if line.hasPrefix("event: ") { name = String(line.dropFirst(7)) }
                if line.hasPrefix("data: ") { data.append(String(line.dropFirst(6))) }
            }
            return data.isEmpty ? nil : (name, data.joined(separator: "\n"))
        }
    }

    static func object(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }

    // MARK: Readers, one per provider, from its documentation

    /// Chat Completions chunks: `choices[0].delta.content` appended; `delta.tool_calls[i]` opens a call with its
    /// `id` and `function.name` and appends `function.arguments`; `finish_reason`; the usage chunk (no choices).
    static func readOpenAIChat(stream body: Data) -> Reading {
        var reading = Reading()
        for (_, data) in events(body) {
            if data == "[DONE]" {
                reading.kinds.append("[DONE]")
                continue
            }
            let chunk = object(data)
            let choices = chunk["choices"] as? [[String: Any]] ?? []
            if let usage = chunk["usage"] as? [String: Any], choices.isEmpty {
                reading.usage = (usage["prompt_tokens"] as? Int ?? -1, usage["completion_tokens"] as? Int ?? -1)
                reading.kinds.append("usage")
                continue
            }
            let delta = choices.first?["delta"] as? [String: Any] ?? [:]
            if let finish = choices.first?["finish_reason"] as? String {
                reading.finish = finish
                reading.kinds.append("finish")
            } else if delta["role"] != nil {
                reading.kinds.append("role")
            } else if let content = delta["content"] as? String {
                reading.text += content
                reading.kinds.append("content")
            } else if let calls = delta["tool_calls"] as? [[String: Any]] {
                for call in calls {
                    let index = call["index"] as? Int ?? -1
                    let function = call["function"] as? [String: Any] ?? [:]
                    if let id = call["id"] as? String {
                        reading.calls.append((id, function["name"] as? String ?? "", ""))
                        reading.kinds.append("tool_call")
                    } else {
                        reading.kinds.append("arguments")
                    }
                    if reading.calls.indices.contains(index) {
                        reading.calls[index].arguments += function["arguments"] as? String ?? ""
                    }
                }
            }
        }
        return reading
    }

    static func readOpenAIChat(whole body: Data) -> Reading {
        let answer = object(String(decoding: body, as: UTF8.self))
        let choice = (answer["choices"] as? [[String: Any]])?.first ?? [:]
        let message = choice["message"] as? [String: Any] ?? [:]
        var reading = Reading(
            text: message["content"] as? String ?? "", finish: choice["finish_reason"] as? String ?? "")
        for call in message["tool_calls"] as? [[String: Any]] ?? [] {
            let function = call["function"] as? [String: Any] ?? [:]
            reading.calls.append(
                (call["id"] as? String ?? "", function["name"] as? String ?? "", function["arguments"] as? String ?? "")
            )
        }
        let usage = answer["usage"] as? [String: Any] ?? [:]
        reading.usage = (usage["prompt_tokens"] as? Int ?? -1, usage["completion_tokens"] as? Int ?? -1)
        return reading
    }

    /// Messages events, each named as its data's `type`: `content_block_start` opens a block (a `tool_use` with its
    /// `id` and `name`), `text_delta` and `input_json_delta` (`partial_json`) append to the block at `index`;
    /// `message_start` has the input tokens, `message_delta` the stop reason and output tokens.
    static func readAnthropic(stream body: Data) -> Reading {
        var reading = Reading()
        var blocks: [Int: (type: String, id: String, name: String, text: String)] = [:]
        for (name, data) in events(body) {
            let event = object(data)
            let type = event["type"] as? String ?? "?"
            reading.kinds.append(name == type ? type : "\(name ?? "nil") != \(type)")
            let index = event["index"] as? Int ?? -1
            switch type {
            case "message_start":
                let usage = (event["message"] as? [String: Any])?["usage"] as? [String: Any]
                reading.usage.input = usage?["input_tokens"] as? Int ?? -1
            case "content_block_start":
                let block = event["content_block"] as? [String: Any] ?? [:]
                blocks[index] = (
                    block["type"] as? String ?? "", block["id"] as? String ?? "", block["name"] as? String ?? "", ""
                )
            case "content_block_delta":
                let delta = event["delta"] as? [String: Any] ?? [:]
                blocks[index]?.text += (delta["text"] as? String) ?? (delta["partial_json"] as? String) ?? ""
            case "message_delta":
                reading.finish = (event["delta"] as? [String: Any])?["stop_reason"] as? String ?? ""
                reading.usage.output = (event["usage"] as? [String: Any])?["output_tokens"] as? Int ?? -1
            default: break
            }
        }
        for index in blocks.keys.sorted() {
            let block = blocks[index]!
            if block.type == "text" { reading.text += block.text }
            if block.type == "tool_use" { reading.calls.append((block.id, block.name, block.text)) }
        }
        return reading
    }

    static func readAnthropic(whole body: Data) -> Reading {
        let message = object(String(decoding: body, as: UTF8.self))
        var reading = Reading(finish: message["stop_reason"] as? String ?? "")
        for block in message["content"] as? [[String: Any]] ?? [] {
            if block["type"] as? String == "text" { reading.text += block["text"] as? String ?? "" }
            if block["type"] as? String == "tool_use", let input = block["input"] {
                let arguments = (try? JSONSerialization.data(withJSONObject: input)).map {
                    String(decoding: $0, as: UTF8.self)
                }
                reading.calls.append((block["id"] as? String ?? "", block["name"] as? String ?? "", arguments ?? ""))
            }
        }
        let usage = message["usage"] as? [String: Any] ?? [:]
        reading.usage = (usage["input_tokens"] as? Int ?? -1, usage["output_tokens"] as? Int ?? -1)
        return reading
    }

    /// Responses events, named as their data's `type` and numbered from 0 by `sequence_number`:
    /// `response.output_text.delta` appends text; `response.output_item.added` of a `function_call` opens a call
    /// (`call_id`, `name`), `response.function_call_arguments.delta` appends to the item; `response.completed` has
    /// the status and usage.
    static func readOpenAIResponses(stream body: Data) -> Reading {
        var reading = Reading()
        var callItems: [String] = []
        for (position, (name, data)) in events(body).enumerated() {
            let event = object(data)
            let type = event["type"] as? String ?? "?"
            let numbered = event["sequence_number"] as? Int == position
            reading.kinds.append(name == type && numbered ? type : "\(name ?? "nil") != \(type) #\(position)")
            switch type {
            case "response.output_text.delta": reading.text += event["delta"] as? String ?? ""
            case "response.output_item.added":
                let item = event["item"] as? [String: Any] ?? [:]
                if item["type"] as? String == "function_call" {
                    callItems.append(item["id"] as? String ?? "")
                    reading.calls.append((item["call_id"] as? String ?? "", item["name"] as? String ?? "", ""))
                }
            case "response.function_call_arguments.delta":
                if let index = callItems.firstIndex(of: event["item_id"] as? String ?? "") {
                    reading.calls[index].arguments += event["delta"] as? String ?? ""
                }
            case "response.completed", "response.incomplete":
                let response = event["response"] as? [String: Any] ?? [:]
                reading.finish = response["status"] as? String ?? ""
                if let reason = (response["incomplete_details"] as? [String: Any])?["reason"] as? String {
                    reading.finish += " " + reason
                }
                let usage = response["usage"] as? [String: Any] ?? [:]
                reading.usage = (usage["input_tokens"] as? Int ?? -1, usage["output_tokens"] as? Int ?? -1)
            default: break
            }
        }
        return reading
    }

    static func readOpenAIResponses(whole body: Data) -> Reading {
        let response = object(String(decoding: body, as: UTF8.self))
        var reading = Reading(finish: response["status"] as? String ?? "")
        if let reason = (response["incomplete_details"] as? [String: Any])?["reason"] as? String {
            reading.finish += " " + reason
        }
        for item in response["output"] as? [[String: Any]] ?? [] {
            if item["type"] as? String == "message" {
                for part in item["content"] as? [[String: Any]] ?? [] where part["type"] as? String == "output_text" {
                    reading.text += part["text"] as? String ?? ""
                }
            }
            if item["type"] as? String == "function_call" {
                reading.calls.append(
                    (
                        item["call_id"] as? String ?? "", item["name"] as? String ?? "",
                        item["arguments"] as? String ?? ""
                    ))
            }
        }
        let usage = response["usage"] as? [String: Any] ?? [:]
        reading.usage = (usage["input_tokens"] as? Int ?? -1, usage["output_tokens"] as? Int ?? -1)
        return reading
    }

    /// Gemini `GenerateContentResponse`s: each candidate's `content.parts` text appended, `functionCall`s whole
    /// (`name`, `args`); the last has `finishReason` and `usageMetadata`.
    static func readGemini(_ responses: [[String: Any]]) -> Reading {
        var reading = Reading()
        for response in responses {
            let candidate = (response["candidates"] as? [[String: Any]])?.first ?? [:]
            let parts = (candidate["content"] as? [String: Any])?["parts"] as? [[String: Any]] ?? []
            reading.kinds.append(candidate["finishReason"] == nil ? "chunk" : "last")
            for part in parts {
                reading.text += part["text"] as? String ?? ""
                if let call = part["functionCall"] as? [String: Any] {
                    let arguments = (try? JSONSerialization.data(withJSONObject: call["args"] ?? [:])).map {
                        String(decoding: $0, as: UTF8.self)
                    }
                    reading.calls.append((call["id"] as? String ?? "", call["name"] as? String ?? "", arguments ?? ""))
                }
            }
            if let finish = candidate["finishReason"] as? String { reading.finish = finish }
            if let usage = response["usageMetadata"] as? [String: Any] {
                reading.usage = (usage["promptTokenCount"] as? Int ?? -1, usage["candidatesTokenCount"] as? Int ?? -1)
            }
        }
        return reading
    }

    static func read(_ provider: Provider, _ body: Data, stream: Bool, sse: Bool = true) -> Reading {
        switch (provider, stream) {
        case (.openAIChat, true): readOpenAIChat(stream: body)
        case (.openAIChat, false): readOpenAIChat(whole: body)
        case (.anthropic, true): readAnthropic(stream: body)
        case (.anthropic, false): readAnthropic(whole: body)
        case (.openAIResponses, true): readOpenAIResponses(stream: body)
        case (.openAIResponses, false): readOpenAIResponses(whole: body)
        case (.gemini, true) where sse: readGemini(events(body).map { object($0.data) })
        case (.gemini, true):
            readGemini((try? JSONSerialization.jsonObject(with: body)) as? [[String: Any]] ?? [])
        case (.gemini, false): readGemini([object(String(decoding: body, as: UTF8.self))])
        }
    }

    /// The documented order of each stream's events for a turn of text then one tool call.
    static func order(_ provider: Provider) -> [String] {
        let six = { (kind: String) in Array(repeating: kind, count: 6) }
        let four = { (kind: String) in Array(repeating: kind, count: 4) }
        switch provider {
        case .openAIChat:
            return ["role"] + six("content") + ["tool_call"] + four("arguments") + ["finish", "usage", "[DONE]"]
        case .anthropic:
            return ["message_start", "content_block_start", "ping"] + six("content_block_delta")
                + ["content_block_stop", "content_block_start"] + four("content_block_delta")
                + ["content_block_stop", "message_delta", "message_stop"]
        case .openAIResponses:
            return [
                "response.created", "response.in_progress", "response.output_item.added",
                "response.content_part.added",
            ] + six("response.output_text.delta")
                + ["response.output_text.done", "response.content_part.done", "response.output_item.done"]
                + ["response.output_item.added"] + four("response.function_call_arguments.delta")
                + ["response.function_call_arguments.done", "response.output_item.done", "response.completed"]
        case .gemini:
            return six("chunk") + ["last"]
        }
    }

    @Test(arguments: Transport.allCases, Provider.allCases)
    func eachFormat_streamedAndWhole_readsBackAsTheTurn(_ transport: Transport, _ provider: Provider) async throws {
        try await Stubs.with(transport, realHost: URL(string: "https://api.openai.com")!) { stubs in
            let session = URLSession(configuration: stubs.configuration)
            defer { session.finishTasksAndInvalidate() }
            for form in provider.forms {
                let (body, response) = try await session.data(
                    for: provider.request(stubs.baseURL, stream: form.stream, sse: form.sse))
                let label = "\(provider) stream \(form.stream) sse \(form.sse)"
                #expect((response as? HTTPURLResponse)?.statusCode == 200, "\(label)")
                let type = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") ?? ""
                #expect(type.hasPrefix(form.stream && form.sse ? "text/event-stream" : "application/json"), "\(label)")
                let reading = Self.read(provider, body, stream: form.stream, sse: form.sse)
                #expect(reading.text == Self.text, "\(label)")
                #expect(reading.calls.count == 1, "\(label)")
                if let call = reading.calls.first {
                    // Gemini's calls carry no id.
                    #expect(call.id == (provider == .gemini ? "" : "call_recipe_1"), "\(label)")
                    #expect(call.name == "find_recipe", "\(label)")
                    #expect(NSDictionary(dictionary: Self.object(call.arguments)) == Self.arguments, "\(label)")
                }
                #expect(reading.finish == provider.toolFinish, "\(label)")
                #expect(reading.usage == (48, 31), "\(label)")
                if form.stream { #expect(reading.kinds == Self.order(provider), "\(label)") }
            }
        }
    }

    /// Each provider's failures as variants: its status and its own error shape (OpenAI `error.type` and `code`,
    /// Anthropic `{"type": "error", "error": {"type"}}`, Gemini `error.status`), a 429 with the provider's
    /// rate-limit headers.
    @Test(arguments: Transport.allCases, Provider.allCases)
    func eachFailure_isTheProvidersOwn(_ transport: Transport, _ provider: Provider) async throws {
        let expected: [(variant: String, status: Int, kind: String)]
        switch provider {
        case .openAIChat, .openAIResponses:
            expected = [
                ("rate-limited", 429, "requests rate_limit_exceeded"), ("overloaded", 503, "server_error"),
                ("bad-request", 400, "invalid_request_error"),
                ("unauthorized", 401, "invalid_request_error invalid_api_key"),
                ("context-length", 400, "invalid_request_error context_length_exceeded"),
            ]
        case .anthropic:
            expected = [
                ("rate-limited", 429, "rate_limit_error"), ("overloaded", 529, "overloaded_error"),
                ("bad-request", 400, "invalid_request_error"), ("unauthorized", 401, "authentication_error"),
                ("context-length", 400, "invalid_request_error"),
            ]
        case .gemini:
            expected = [
                ("rate-limited", 429, "RESOURCE_EXHAUSTED"), ("overloaded", 503, "UNAVAILABLE"),
                ("bad-request", 400, "INVALID_ARGUMENT"), ("unauthorized", 400, "INVALID_ARGUMENT"),
                ("context-length", 400, "INVALID_ARGUMENT"),
            ]
        }
        try await Stubs.with(transport, realHost: URL(string: "https://api.openai.com")!) { stubs in
            let session = URLSession(configuration: stubs.configuration)
            defer { session.finishTasksAndInvalidate() }
            for (variant, status, kind) in expected {
                for form in provider.forms {
                    var request = provider.request(stubs.baseURL, stream: form.stream, sse: form.sse)
                    request.setValue(variant, forHTTPHeaderField: "X-Stub-Variant")
                    let (body, response) = try await session.data(for: request)
                    let http = response as? HTTPURLResponse
                    #expect(http?.statusCode == status, "\(provider) \(variant)")
                    let answer = Self.object(String(decoding: body, as: UTF8.self))
                    let error = answer["error"] as? [String: Any] ?? [:]
                    let read: String
                    switch provider {
                    case .openAIChat, .openAIResponses:
                        read = [error["type"] as? String, error["code"] as? String].compactMap { $0 }.joined(
                            separator: " ")
                    case .anthropic: read = answer["type"] as? String == "error" ? error["type"] as? String ?? "" : ""
                    case .gemini: read = error["status"] as? String ?? ""
                    }
                    #expect(read == kind, "\(provider) \(variant)")
                    if variant == "rate-limited", provider != .gemini {
                        #expect(http?.value(forHTTPHeaderField: "retry-after") == "1", "\(provider)")
                        let limit =
                            provider == .anthropic
                            ? "anthropic-ratelimit-requests-remaining" : "x-ratelimit-remaining-requests"
                        #expect(http?.value(forHTTPHeaderField: limit) == "0", "\(provider)")
                    }
                }
            }
        }
    }

    /// The turns that end early, streamed and whole, read with each provider's own finish; a stream that fails
    /// midway ends on the provider's error event.
    @Test(arguments: Provider.allCases)
    func earlyEnds_andAnErrorMidStream_readAsTheProviderSaysThem(_ provider: Provider) async throws {
        let finishes: [String: String]
        switch provider {
        case .openAIChat: finishes = ["cut-by-length": "length", "filtered": "content_filter"]
        case .openAIResponses:
            finishes = ["cut-by-length": "incomplete max_output_tokens", "filtered": "incomplete content_filter"]
        case .anthropic: finishes = ["cut-by-length": "max_tokens", "filtered": "refusal"]
        case .gemini: finishes = ["cut-by-length": "MAX_TOKENS", "filtered": "SAFETY"]
        }
        try await Stubs.with(.socket, realHost: URL(string: "https://api.openai.com")!) { stubs in
            let session = URLSession(configuration: stubs.configuration)
            defer { session.finishTasksAndInvalidate() }
            for (variant, finish) in finishes {
                for form in provider.forms {
                    var request = provider.request(stubs.baseURL, stream: form.stream, sse: form.sse)
                    request.setValue(variant, forHTTPHeaderField: "X-Stub-Variant")
                    let (body, _) = try await session.data(for: request)
                    let reading = Self.read(provider, body, stream: form.stream, sse: form.sse)
                    let label = "\(provider) \(variant) stream \(form.stream) sse \(form.sse)"
                    #expect(reading.finish == finish, "\(label)")
                    #expect(reading.text == Self.text, "\(label)")
                }
            }
            var request = provider.request(stubs.baseURL, stream: true)
            request.setValue("error-mid-stream", forHTTPHeaderField: "X-Stub-Variant")
            let (body, _) = try await session.data(for: request)
            let events = Self.events(body)
            let last = Self.object(events.last?.data ?? "")
            #expect(events.count >= 2, "\(provider)")
            #expect(last["error"] != nil || last["type"] as? String == "error", "\(provider): \(last)")
            if provider == .anthropic || provider == .openAIResponses { #expect(events.last?.name == "error") }
        }
    }

    /// A broken or empty answer in every form: the provider's reader finds no text and no call in it, so a client
    /// cannot take it for an answer.
    @Test(arguments: Provider.allCases)
    func brokenAndEmptyAnswers_readAsNothing(_ provider: Provider) async throws {
        try await Stubs.with(.inProcess, realHost: URL(string: "https://api.openai.com")!) { stubs in
            let session = URLSession(configuration: stubs.configuration)
            defer { session.finishTasksAndInvalidate() }
            for variant in ["bad", "nil"] {
                for form in provider.forms {
                    var request = provider.request(stubs.baseURL, stream: form.stream, sse: form.sse)
                    request.setValue(variant, forHTTPHeaderField: "X-Stub-Variant")
                    let (body, response) = try await session.data(for: request)
                    let label = "\(provider) \(variant) stream \(form.stream) sse \(form.sse)"
                    #expect((response as? HTTPURLResponse)?.statusCode == 200, "\(label)")
                    let reading = Self.read(provider, body, stream: form.stream, sse: form.sse)
                    #expect(reading.text.isEmpty && reading.calls.isEmpty && reading.finish.isEmpty, "\(label)")
                }
            }
        }
    }

    /// The assistant stubs, each with the form of request it answers.
    static let stubs: [(name: String, provider: Provider, stream: Bool, sse: Bool)] = [
        ("openai-chat", .openAIChat, false, true), ("openai-chat-stream", .openAIChat, true, true),
        ("openai-responses", .openAIResponses, false, true), ("openai-responses-stream", .openAIResponses, true, true),
        ("anthropic", .anthropic, false, true), ("anthropic-stream", .anthropic, true, true),
        ("gemini", .gemini, false, true), ("gemini-stream", .gemini, true, true),
        ("gemini-stream-array", .gemini, true, false),
    ]

    /// Each stub's good answer has at least 150 mutants, and a sample of them (every 25th under `SWEEP=all`, else
    /// six spread along the list; none that waits or hangs on purpose) is served by its ID over both transports,
    /// as the journal records.
    @Test(arguments: Transport.allCases)
    func theMutants_areServedByID(_ transport: Transport) async throws {
        let catalog = try await MockData.catalog()
        try await Stubs.with(transport, realHost: URL(string: "https://api.openai.com")!) { stubs in
            let session = URLSession(configuration: stubs.configuration)
            defer { session.finishTasksAndInvalidate() }
            for stub in Self.stubs {
                let ids = try #require(catalog.stub(named: stub.name)?.variants["good"]).mutants.map(\.id)
                #expect(ids.count >= 150, "\(stub.name): \(ids.count) mutants")
                let waits = ["hang", "pause", "delay", "slow", "late"]
                let quick = ids.filter { id in !waits.contains { id.contains($0) } }
                let step = FullSweep.isOn ? 25 : max(1, quick.count / 6)
                for id in stride(from: 0, to: quick.count, by: step).map({ quick[$0] }) {
                    var request = stub.provider.request(stubs.baseURL, stream: stub.stream, sse: stub.sse)
                    request.setValue(id, forHTTPHeaderField: "X-Stub-Mutation")
                    _ = try? await session.data(for: request)
                    let entry = try await stubs.server.journal(JournalQuery(stub: stub.name)).last
                    #expect(entry?.mutation == id, "\(stub.name) \(id)")
                }
            }
        }
    }
}

extension ModelAPITurnTests {
    /// The streamed stubs, by provider.
    static let streams: [Provider: String] = [
        .openAIChat: "openai-chat-stream", .openAIResponses: "openai-responses-stream", .anthropic: "anthropic-stream",
        .gemini: "gemini-stream",
    ]

    /// How `provider`'s reader names each finish (`AssistantTurn.Finish`).
    static func finish(_ name: String, _ provider: Provider) -> String {
        let names: [String: [Provider: String]] = [
            "stop": [.openAIChat: "stop", .openAIResponses: "completed", .anthropic: "end_turn", .gemini: "STOP"],
            "length": [
                .openAIChat: "length", .openAIResponses: "incomplete max_output_tokens", .anthropic: "max_tokens",
                .gemini: "MAX_TOKENS",
            ],
            "content-filter": [
                .openAIChat: "content_filter", .openAIResponses: "incomplete content_filter", .anthropic: "refusal",
                .gemini: "SAFETY",
            ],
            "tool-calls": [
                .openAIChat: "tool_calls", .openAIResponses: "completed", .anthropic: "tool_use", .gemini: "STOP",
            ],
        ]
        return names[name]?[provider] ?? "?"
    }

    /// The kinds (as the readers name them) of the events that start and stop a block.
    static func blockKinds(_ provider: Provider, text: Bool) -> (start: String, stops: [String]) {
        switch provider {
        case .openAIChat: ("tool_call", [])
        case .anthropic: ("content_block_start", ["content_block_stop"])
        case .openAIResponses:
            (
                "response.output_item.added",
                text
                    ? ["response.output_text.done", "response.content_part.done", "response.output_item.done"]
                    : ["response.function_call_arguments.done", "response.output_item.done"]
            )
        case .gemini: ("last", [])
        }
    }

    /// Every mutant that follows a stream's grammar, served by its ID over both transports, is what its ID says as
    /// the provider's reader sees it: arguments cut after N pieces end there while the turn still claims its tool
    /// call; a split inside a token, interleaved deltas and an event of a new kind read back as the whole turn; each
    /// finish reads as that finish; the error comes after exactly N events.
    @Test(arguments: Transport.allCases, Provider.allCases)
    func theGrammarsMutants_readAsTheirIDsSay(_ transport: Transport, _ provider: Provider) async throws {
        let catalog = try await MockData.catalog()
        let name = try #require(Self.streams[provider])
        let ids = try #require(catalog.stub(named: name)?.variants["good"]).mutants.map(\.id)
        let grammar = ids.filter { id in
            ["text:", "call[", "parts:", "finish:", "end:", "usage:", "events:new-kind"].contains { id.hasPrefix($0) }
                || id.hasSuffix(":then-error")
        }
        #expect(grammar.count >= (provider == .gemini ? 12 : 25), "\(grammar)")
        let pieces = ["{\"dess", "ert\": \"Apam", " balik\", \"serv", "ings\": 2}"]
        try await Stubs.with(transport, realHost: URL(string: "https://api.openai.com")!) { stubs in
            let session = URLSession(configuration: stubs.configuration)
            defer { session.finishTasksAndInvalidate() }
            let (goodBody, _) = try await session.data(for: provider.request(stubs.baseURL, stream: true))
            let good = Self.read(provider, goodBody, stream: true)
            let goodEvents = Self.events(goodBody)
            // All asked for at once: each waits out the turn's pauses (half a second), which one after another
            // took 84 s beside two CPU hogs.
            let bodies = try await withThrowingTaskGroup(of: (String, Data).self) { group in
                for id in grammar {
                    var request = provider.request(stubs.baseURL, stream: true)
                    request.setValue(id, forHTTPHeaderField: "X-Stub-Mutation")
                    group.addTask { [request] in
                        // A session of its own per request: swift-corelibs-foundation's URLSession keeps its tasks in
                        // a registry that a URLProtocol's client calls read on the protocol's thread while the
                        // session's own queue adds and removes the others; with a hundred of one session's tasks in
                        // flight in process, that race crashed in `URLSession.behaviour(for:)` once beside CPU hogs.
                        let own = URLSession(configuration: stubs.configuration)
                        defer { own.finishTasksAndInvalidate() }
                        return (id, try await own.data(for: request).0)
                    }
                }
                return try await group.reduce(into: [String: Data]()) { $0[$1.0] = $1.1 }
            }
            for id in grammar {
                let body = try #require(bodies[id])
                #expect(body != goodBody, "\(provider) \(id)")
                let reading = Self.read(provider, body, stream: true)
                let events = Self.events(body)
                // Arguments compared as objects: a reader that writes them out again may order the keys its own way.
                let sameArguments =
                    reading.calls.map { NSDictionary(dictionary: Self.object($0.arguments)) }
                    == good.calls.map { NSDictionary(dictionary: Self.object($0.arguments)) }
                let sameTurn =
                    reading.text == good.text && sameArguments && reading.finish == good.finish
                    && reading.usage == good.usage
                let (label, suffix) = ("\(provider) \(id)", id.split(separator: ":").last.map(String.init) ?? "")
                // Responses numbers the events it sends in order, whichever it sends.
                #expect(!reading.kinds.contains { $0.contains(" != ") }, "\(label): \(reading.kinds)")
                if id.hasPrefix("call[1].arguments:cut-after-") {
                    let count = Int(id.dropFirst("call[1].arguments:cut-after-".count)) ?? -1
                    #expect(reading.calls.map(\.arguments) == [pieces.prefix(count).joined()], "\(label)")
                    #expect(reading.text == good.text && reading.finish == good.finish, "\(label)")
                } else if id.hasPrefix("call[1].arguments:split-in-token-") {
                    #expect(sameTurn, "\(label)")
                    #expect(events.count == goodEvents.count + 1, "\(label): one more delta")
                } else if id == "parts:interleaved" {
                    #expect(sameTurn, "\(label)")
                    // A tool call's first event now comes before the text's last.
                    let isCall = { (data: String) in data.contains("call_recipe_1") || data.contains("functionCall") }
                    let firstCall = try #require(events.firstIndex { isCall($0.data) })
                    let lastText = try #require(events.lastIndex { $0.data.contains("its recipe.") })
                    #expect(firstCall < lastText, "\(label)")
                    #expect(events.count == goodEvents.count, "\(label)")
                } else if id == "events:new-kind" {
                    #expect(sameTurn, "\(label)")
                    #expect(events.count == goodEvents.count + 1, "\(label)")
                } else if id == "finish:missing" {
                    #expect(reading.finish == "" && reading.text == good.text, "\(label)")
                } else if id == "end:missing" {
                    #expect(sameTurn, "\(label)")
                    #expect(events.map(\.data) == goodEvents.dropLast().map(\.data), "\(label)")
                } else if id.hasPrefix("finish:") {
                    #expect(reading.finish == Self.finish(suffix, provider), "\(label)")
                    #expect(reading.text == good.text, "\(label)")
                } else if id == "usage:zero" {
                    #expect(reading.usage == (0, 0) && reading.text == good.text, "\(label)")
                } else if id.hasSuffix(":then-error") {
                    let sent = Int(id.dropFirst("event[".count).prefix { $0.isNumber }) ?? -1
                    #expect(events.count == sent + 1, "\(label)")
                    #expect(events.dropLast().map(\.data) == goodEvents.prefix(sent).map(\.data), "\(label)")
                    let last = Self.object(events.last?.data ?? "")
                    #expect(last["error"] != nil || last["type"] as? String == "error", "\(label)")
                } else if suffix == "started-twice" || suffix == "never-stopped" {
                    let kinds = Self.blockKinds(provider, text: id.hasPrefix("text"))
                    if suffix == "started-twice" {
                        #expect(events.count == goodEvents.count + 1, "\(label)")
                        let pairs = zip(events, events.dropFirst())
                        let starts =
                            provider == .openAIChat || provider == .gemini
                            ? pairs.first { $0.data == $1.data }.map {
                                $0.0.data.contains("call_recipe_1") || $0.0.data.contains("functionCall")
                            }
                            : pairs.contains { $0.name == kinds.start && $1.name == kinds.start }
                        #expect(starts == true, "\(label): \(events.map(\.name))")
                    } else {
                        #expect(events.count == goodEvents.count - kinds.stops.count, "\(label)")
                        #expect(sameTurn, "\(label)")
                    }
                } else {
                    Issue.record("\(label): no claim checked")
                }
            }
        }
    }
}

extension ModelAPITurnTests {
    /// A stub that answers only a request offering its tool (`jsonPath` on `tools[0].name`), with the model and
    /// the stream flag: a request without the tool is a miss that names the field, and the journal keeps the body.
    static let toolStub = #"""
        {"stubs": [{
          "name": "anthropic-with-tool",
          "request": {"method": "POST", "path": "/v1/messages", "body": {"jsonPath": {
            "model": "catalog-assistant-1", "stream": "true", "tools[0].name": "find_recipe"}}},
          "variants": {
            "good": {"turn": {"format": "anthropic", "stream": true, "id": "t1", "model": "catalog-assistant-1",
              "text": ["Looking."], "toolCalls": [{"id": "call_1", "name": "find_recipe",
              "arguments": ["{\"dessert\": ", "\"Apam balik\"}"]}]}},
            "bad": {"generated": true, "body": "{"}, "nil": {"generated": true, "body": ""}}
        }]}
        """#

    @Test(arguments: Transport.allCases)
    func aRequestsTools_areMatched_andAMissNamesThem(_ transport: Transport) async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tools-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("api"), withIntermediateDirectories: true)
        try Data(Self.toolStub.utf8).write(to: root.appendingPathComponent("api/stubs.json"))
        try await Stubs.with(transport, fixtures: root, realHost: URL(string: "https://api.anthropic.com")!) { stubs in
            let session = URLSession(configuration: stubs.configuration)
            defer { session.finishTasksAndInvalidate() }
            var request = Provider.anthropic.request(stubs.baseURL, stream: true)
            let offered = #"{"model": "catalog-assistant-1", "stream": true, "tools": [{"name": "find_recipe"}]}"#
            request.httpBody = Data(offered.utf8)
            let (body, response) = try await session.data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(Self.readAnthropic(stream: body).calls.map(\.name) == ["find_recipe"])
            request.httpBody = Data(#"{"model": "catalog-assistant-1", "stream": true, "tools": []}"#.utf8)
            let (_, missed) = try await session.data(for: request)
            #expect((missed as? HTTPURLResponse)?.statusCode == 404)
            let reports = try await stubs.server.unmatchedReports()
            #expect(reports.count == 1)
            #expect(reports.first?.contains("tools[0].name") == true, "\(reports)")
            let journal = try await stubs.server.journal(JournalQuery())
            #expect(journal.first?.stub == "anthropic-with-tool")
            #expect(journal.first.map { String(decoding: $0.body, as: UTF8.self) } == offered)
        }
    }
}

/// OpenAI Chat Completions (`POST /v1/chat/completions`): a `chat.completion`, or `chat.completion.chunk` events,
/// each a `data:` line with no event name, ending with `data: [DONE]`.
enum OpenAIChatFormat {
    static func finishReason(_ finish: AssistantTurn.Finish) -> String {
        switch finish {
        case .stop: "stop"
        case .length: "length"
        case .toolCalls: "tool_calls"
        case .contentFilter: "content_filter"
        }
    }

    static func id(_ turn: AssistantTurn) -> String { "chatcmpl-\(turn.id)" }

    static func usage(_ turn: AssistantTurn) -> OrderedJSON {
        .object([
            ("prompt_tokens", .int(turn.usage.input)), ("completion_tokens", .int(turn.usage.output)),
            ("total_tokens", .int(turn.usage.input + turn.usage.output)),
        ])
    }

    static func completion(_ turn: AssistantTurn) -> OrderedJSON {
        var message: [(String, OrderedJSON)] = [
            ("role", .string("assistant")), ("content", turn.text.isEmpty ? .null : .string(turn.wholeText)),
        ]
        if !turn.toolCalls.isEmpty {
            message.append(
                (
                    "tool_calls",
                    .array(
                        turn.toolCalls.map { call in
                            .object([
                                ("id", .string(call.id)), ("type", .string("function")),
                                (
                                    "function",
                                    .object([("name", .string(call.name)), ("arguments", .string(call.argumentsText))])
                                ),
                            ])
                        })
                ))
        }
        return .object([
            ("id", .string(id(turn))), ("object", .string("chat.completion")), ("created", .int(turn.created)),
            ("model", .string(turn.model)),
            (
                "choices",
                .array([
                    .object([
                        ("index", .int(0)), ("message", .object(message)),
                        ("finish_reason", .string(finishReason(turn.finish))),
                    ])
                ])
            ),
            ("usage", usage(turn)),
        ])
    }

    /// A chunk with one choice holding `delta`.
    static func chunk(_ turn: AssistantTurn, delta: [(String, OrderedJSON)], finish: String? = nil) -> OrderedJSON {
        .object([
            ("id", .string(id(turn))), ("object", .string("chat.completion.chunk")), ("created", .int(turn.created)),
            ("model", .string(turn.model)),
            (
                "choices",
                .array([
                    .object([
                        ("index", .int(0)), ("delta", .object(delta)),
                        ("finish_reason", finish.map(OrderedJSON.string) ?? .null),
                    ])
                ])
            ),
        ])
    }

    static func events(_ turn: AssistantTurn, includeUsage: Bool, script: TurnScript) -> [TurnEvent] {
        var events = [
            TurnEvent(
                .make(data: chunk(turn, delta: [("role", .string("assistant")), ("content", .string(""))]).text),
                .opening)
        ]
        if script.newKind {
            // A delta field the format did not have: as `refusal` once was, and `reasoning` is for some servers.
            let delta: [(String, OrderedJSON)] = [("reasoning", .string("Looking for a dessert for tonight."))]
            events.append(TurnEvent(.make(data: chunk(turn, delta: delta).text), .other))
        }
        for part in script.parts {
            let delta: [(String, OrderedJSON)]
            let delayMs: Int
            switch part {
            case .text(let piece):
                (delta, delayMs) = ([("content", .string(piece.text))], piece.delayMs)
            case .toolCallStart(let index, let call):
                let function: OrderedJSON = .object([("name", .string(call.name)), ("arguments", .string(""))])
                let item: OrderedJSON = .object([
                    ("index", .int(index)), ("id", .string(call.id)), ("type", .string("function")),
                    ("function", function),
                ])
                (delta, delayMs) = ([("tool_calls", .array([item]))], 0)
            case .arguments(let index, let piece):
                let item: OrderedJSON = .object([
                    ("index", .int(index)), ("function", .object([("arguments", .string(piece.text))])),
                ])
                (delta, delayMs) = ([("tool_calls", .array([item]))], piece.delayMs)
            case .toolCallEnd: continue
            }
            let role: TurnEvent.Role = if case .toolCallStart = part { .start(part.block) } else { .delta(part.block) }
            events.append(TurnEvent(.make(data: chunk(turn, delta: delta).text, delayMs: delayMs), role))
        }
        events.append(TurnEvent(.make(data: chunk(turn, delta: [], finish: finishReason(turn.finish)).text), .finish))
        if includeUsage {
            let usageChunk: OrderedJSON = .object([
                ("id", .string(id(turn))), ("object", .string("chat.completion.chunk")),
                ("created", .int(turn.created)), ("model", .string(turn.model)), ("choices", .array([])),
                ("usage", usage(turn)),
            ])
            events.append(TurnEvent(.make(data: usageChunk.text), .usage))
        }
        events.append(TurnEvent(.make(data: "[DONE]"), .end))
        return events
    }
}

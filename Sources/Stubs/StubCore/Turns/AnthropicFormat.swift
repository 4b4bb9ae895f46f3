/// Anthropic Messages (`POST /v1/messages`): a `message`, or named events: `message_start`, per content block
/// `content_block_start`, `content_block_delta` (`text_delta`, `input_json_delta`) and `content_block_stop`, a
/// `ping`, then `message_delta` (the stop reason and output tokens) and `message_stop`.
enum AnthropicFormat {
    static func stopReason(_ finish: AssistantTurn.Finish) -> String {
        switch finish {
        case .stop: "end_turn"
        case .length: "max_tokens"
        case .toolCalls: "tool_use"
        case .contentFilter: "refusal"
        }
    }

    static func id(_ turn: AssistantTurn) -> String { "msg_\(turn.id)" }

    static func message(
        _ turn: AssistantTurn, content: [OrderedJSON], stopReason: String?, outputTokens: Int
    ) -> OrderedJSON {
        .object([
            ("id", .string(id(turn))), ("type", .string("message")), ("role", .string("assistant")),
            ("model", .string(turn.model)), ("content", .array(content)),
            ("stop_reason", stopReason.map(OrderedJSON.string) ?? .null), ("stop_sequence", .null),
            ("usage", .object([("input_tokens", .int(turn.usage.input)), ("output_tokens", .int(outputTokens))])),
        ])
    }

    static func message(_ turn: AssistantTurn) -> OrderedJSON {
        var content: [OrderedJSON] = []
        if !turn.text.isEmpty {
            content.append(.object([("type", .string("text")), ("text", .string(turn.wholeText))]))
        }
        for call in turn.toolCalls {
            content.append(
                .object([
                    ("type", .string("tool_use")), ("id", .string(call.id)), ("name", .string(call.name)),
                    ("input", OrderedJSON.parsed(call.argumentsText)),
                ]))
        }
        return message(turn, content: content, stopReason: stopReason(turn.finish), outputTokens: turn.usage.output)
    }

    static func event(_ type: String, _ fields: [(String, OrderedJSON)], delayMs: Int = 0) -> ServerSentEvent {
        .make(event: type, data: OrderedJSON.object([("type", .string(type))] + fields).text, delayMs: delayMs)
    }

    static func events(_ turn: AssistantTurn) -> [ServerSentEvent] {
        var events = [
            event("message_start", [("message", message(turn, content: [], stopReason: nil, outputTokens: 1))])
        ]
        // The text is block 0 when there is text; each tool call a block after it.
        let first = turn.text.isEmpty ? 0 : 1
        if !turn.text.isEmpty {
            events.append(
                event(
                    "content_block_start",
                    [
                        ("index", .int(0)),
                        ("content_block", .object([("type", .string("text")), ("text", .string(""))])),
                    ]
                ))
            events.append(event("ping", []))
        }
        for part in TurnPart.of(turn) {
            switch part {
            case .text(let piece):
                let delta: OrderedJSON = .object([("type", .string("text_delta")), ("text", .string(piece.text))])
                events.append(
                    event("content_block_delta", [("index", .int(0)), ("delta", delta)], delayMs: piece.delayMs))
            case .toolCallStart(let index, let call):
                if index == 0, first == 1 { events.append(event("content_block_stop", [("index", .int(0))])) }
                let block: OrderedJSON = .object([
                    ("type", .string("tool_use")), ("id", .string(call.id)), ("name", .string(call.name)),
                    ("input", .object([])),
                ])
                events.append(event("content_block_start", [("index", .int(first + index)), ("content_block", block)]))
            case .arguments(let index, let piece):
                let delta: OrderedJSON = .object([
                    ("type", .string("input_json_delta")), ("partial_json", .string(piece.text)),
                ])
                events.append(
                    event(
                        "content_block_delta", [("index", .int(first + index)), ("delta", delta)],
                        delayMs: piece.delayMs))
            case .toolCallEnd(let index, _):
                events.append(event("content_block_stop", [("index", .int(first + index))]))
            }
        }
        if first == 1, turn.toolCalls.isEmpty { events.append(event("content_block_stop", [("index", .int(0))])) }
        let delta: OrderedJSON = .object([
            ("stop_reason", .string(stopReason(turn.finish))), ("stop_sequence", .null),
        ])
        events.append(
            event(
                "message_delta", [("delta", delta), ("usage", .object([("output_tokens", .int(turn.usage.output))]))]
            ))
        events.append(event("message_stop", []))
        return events
    }
}

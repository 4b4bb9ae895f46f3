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

    static func events(_ turn: AssistantTurn, script: TurnScript) -> [TurnEvent] {
        var events = [
            TurnEvent(
                event("message_start", [("message", message(turn, content: [], stopReason: nil, outputTokens: 1))]),
                .opening)
        ]
        if script.newKind {
            events.append(TurnEvent(event("future_event", [("index", .int(0))]), .other))
        }
        // The text is block 0 when there is text; each tool call a block after it.
        let first = turn.text.isEmpty ? 0 : 1
        if !turn.text.isEmpty {
            let block: OrderedJSON = .object([("type", .string("text")), ("text", .string(""))])
            events.append(
                TurnEvent(event("content_block_start", [("index", .int(0)), ("content_block", block)]), .start(.text)))
            events.append(TurnEvent(event("ping", []), .other))
        }
        let lastText = script.parts.lastIndex { $0.block == .text }
        for (position, part) in script.parts.enumerated() {
            switch part {
            case .text(let piece):
                let delta: OrderedJSON = .object([("type", .string("text_delta")), ("text", .string(piece.text))])
                events.append(
                    TurnEvent(
                        event("content_block_delta", [("index", .int(0)), ("delta", delta)], delayMs: piece.delayMs),
                        .delta(.text)))
                if position == lastText {
                    events.append(TurnEvent(event("content_block_stop", [("index", .int(0))]), .stop(.text)))
                }
            case .toolCallStart(let index, let call):
                let block: OrderedJSON = .object([
                    ("type", .string("tool_use")), ("id", .string(call.id)), ("name", .string(call.name)),
                    ("input", .object([])),
                ])
                events.append(
                    TurnEvent(
                        event("content_block_start", [("index", .int(first + index)), ("content_block", block)]),
                        .start(.call(index))))
            case .arguments(let index, let piece):
                let delta: OrderedJSON = .object([
                    ("type", .string("input_json_delta")), ("partial_json", .string(piece.text)),
                ])
                events.append(
                    TurnEvent(
                        event(
                            "content_block_delta", [("index", .int(first + index)), ("delta", delta)],
                            delayMs: piece.delayMs), .delta(.call(index))))
            case .toolCallEnd(let index, _):
                events.append(
                    TurnEvent(event("content_block_stop", [("index", .int(first + index))]), .stop(.call(index))))
            }
        }
        let delta: OrderedJSON = .object([
            ("stop_reason", .string(stopReason(turn.finish))), ("stop_sequence", .null),
        ])
        let usage: OrderedJSON = .object([("output_tokens", .int(turn.usage.output))])
        events.append(TurnEvent(event("message_delta", [("delta", delta), ("usage", usage)]), .finish))
        events.append(TurnEvent(event("message_stop", []), .end))
        return events
    }
}

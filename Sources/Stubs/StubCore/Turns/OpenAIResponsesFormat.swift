/// OpenAI Responses (`POST /v1/responses`): a `response` object, or typed events, each named by its `type` and
/// numbered by `sequence_number`: `response.created`, `response.in_progress`, for the message
/// `response.output_item.added`, `response.content_part.added`, `response.output_text.delta`s,
/// `response.output_text.done`, `response.content_part.done`, `response.output_item.done`; for each function call
/// `response.output_item.added`, `response.function_call_arguments.delta`s and `.done`, `response.output_item.done`;
/// then `response.completed` (or `response.incomplete` when a limit or filter cut the turn).
enum OpenAIResponsesFormat {
    static func id(_ turn: AssistantTurn) -> String { "resp_\(turn.id)" }
    static func messageID(_ turn: AssistantTurn) -> String { "msg_\(turn.id)" }
    static func callItemID(_ call: AssistantTurn.ToolCall) -> String { "fc_\(call.id)" }

    /// `completed`, or `incomplete` for a turn cut by the token limit or a filter.
    static func status(_ turn: AssistantTurn) -> String {
        turn.finish == .length || turn.finish == .contentFilter ? "incomplete" : "completed"
    }

    static func outputText(_ text: String) -> OrderedJSON {
        .object([("type", .string("output_text")), ("text", .string(text)), ("annotations", .array([]))])
    }

    static func messageItem(_ turn: AssistantTurn, status: String, text: String?) -> OrderedJSON {
        .object([
            ("id", .string(messageID(turn))), ("type", .string("message")), ("status", .string(status)),
            ("role", .string("assistant")), ("content", .array(text.map { [outputText($0)] } ?? [])),
        ])
    }

    static func callItem(_ call: AssistantTurn.ToolCall, status: String, arguments: String) -> OrderedJSON {
        .object([
            ("id", .string(callItemID(call))), ("type", .string("function_call")), ("status", .string(status)),
            ("arguments", .string(arguments)), ("call_id", .string(call.id)), ("name", .string(call.name)),
        ])
    }

    static func output(_ turn: AssistantTurn) -> [OrderedJSON] {
        (turn.text.isEmpty ? [] : [messageItem(turn, status: "completed", text: turn.wholeText)])
            + turn.toolCalls.map { callItem($0, status: "completed", arguments: $0.argumentsText) }
    }

    static func response(_ turn: AssistantTurn, status: String, output: [OrderedJSON]? = nil) -> OrderedJSON {
        let finished = status != "in_progress"
        var fields: [(String, OrderedJSON)] = [
            ("id", .string(id(turn))), ("object", .string("response")), ("created_at", .int(turn.created)),
            ("status", .string(status)), ("model", .string(turn.model)),
            ("output", .array(output ?? (finished ? Self.output(turn) : []))),
        ]
        if status == "incomplete" {
            let reason = turn.finish == .length ? "max_output_tokens" : "content_filter"
            fields.append(("incomplete_details", .object([("reason", .string(reason))])))
        }
        let usage: OrderedJSON = .object([
            ("input_tokens", .int(turn.usage.input)), ("output_tokens", .int(turn.usage.output)),
            ("total_tokens", .int(turn.usage.input + turn.usage.output)),
        ])
        fields.append(("usage", finished ? usage : .null))
        return .object(fields)
    }

    static func events(_ turn: AssistantTurn, script: TurnScript) -> [TurnEvent] {
        var events: [TurnEvent] = []
        func add(_ type: String, _ fields: [(String, OrderedJSON)], delayMs: Int = 0, _ role: TurnEvent.Role) {
            let data: OrderedJSON = .object(
                [("type", .string(type)), ("sequence_number", .int(events.count))] + fields)
            events.append(TurnEvent(.make(event: type, data: data.text, delayMs: delayMs), role))
        }
        add("response.created", [("response", response(turn, status: "in_progress"))], .opening)
        if script.newKind { add("response.future_event", [("output_index", .int(0))], .other) }
        add("response.in_progress", [("response", response(turn, status: "in_progress"))], .other)
        let message = messageID(turn)
        let textIndex: [(String, OrderedJSON)] = [
            ("item_id", .string(message)), ("output_index", .int(0)), ("content_index", .int(0)),
        ]
        let first = turn.text.isEmpty ? 0 : 1
        if !turn.text.isEmpty {
            add(
                "response.output_item.added",
                [("output_index", .int(0)), ("item", messageItem(turn, status: "in_progress", text: nil))],
                .start(.text))
            add("response.content_part.added", textIndex + [("part", outputText(""))], .other)
        }
        let lastText = script.parts.lastIndex { $0.block == .text }
        for (position, part) in script.parts.enumerated() {
            switch part {
            case .text(let piece):
                add(
                    "response.output_text.delta",
                    textIndex + [("delta", .string(piece.text)), ("logprobs", .array([]))],
                    delayMs: piece.delayMs, .delta(.text))
                if position == lastText {
                    // The events that end the message item: its text done, its part done, the item done.
                    let text = turn.wholeText
                    add(
                        "response.output_text.done",
                        textIndex + [("text", .string(text)), ("logprobs", .array([]))], .stop(.text))
                    add("response.content_part.done", textIndex + [("part", outputText(text))], .stop(.text))
                    add(
                        "response.output_item.done",
                        [("output_index", .int(0)), ("item", messageItem(turn, status: "completed", text: text))],
                        .stop(.text))
                }
            case .toolCallStart(let index, let call):
                add(
                    "response.output_item.added",
                    [
                        ("output_index", .int(first + index)),
                        ("item", callItem(call, status: "in_progress", arguments: "")),
                    ], .start(.call(index)))
            case .arguments(let index, let piece):
                let call = turn.toolCalls[index]
                add(
                    "response.function_call_arguments.delta",
                    [
                        ("item_id", .string(callItemID(call))), ("output_index", .int(first + index)),
                        ("delta", .string(piece.text)),
                    ], delayMs: piece.delayMs, .delta(.call(index)))
            case .toolCallEnd(let index, let call):
                add(
                    "response.function_call_arguments.done",
                    [
                        ("item_id", .string(callItemID(call))), ("name", .string(call.name)),
                        ("output_index", .int(first + index)), ("arguments", .string(call.argumentsText)),
                    ], .stop(.call(index)))
                add(
                    "response.output_item.done",
                    [
                        ("output_index", .int(first + index)),
                        ("item", callItem(call, status: "completed", arguments: call.argumentsText)),
                    ], .stop(.call(index)))
            }
        }
        let status = status(turn)
        add(
            status == "completed" ? "response.completed" : "response.incomplete",
            [("response", response(turn, status: status))], .finish)
        return events
    }
}

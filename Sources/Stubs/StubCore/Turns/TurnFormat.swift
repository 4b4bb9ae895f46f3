/// A model API's wire format for an assistant turn: each renders the turn whole (one JSON answer) and streamed
/// (Server-Sent Events), with its own names, fields and event order as the provider documents them
/// (the Model APIs guide cites each source).
package enum TurnFormat: String, Sendable, Equatable, CaseIterable {
    /// OpenAI Chat Completions: `chat.completion`, or `chat.completion.chunk` deltas ending with `data: [DONE]`.
    case openAIChat = "openai-chat"
    /// OpenAI Responses: a `response`, or typed events from `response.created` to `response.completed`.
    case openAIResponses = "openai-responses"
    /// Anthropic Messages: a `message`, or `message_start`, content blocks, `message_delta`, `message_stop`.
    case anthropic
    /// Gemini `generateContent`, or `streamGenerateContent` chunks (`alt=sse`, or a JSON array without it).
    case gemini

    /// How a streamed turn is framed.
    package enum Streaming: String, Sendable, Equatable {
        /// One JSON answer.
        case none
        /// Server-Sent Events.
        case sse
        /// Gemini's `streamGenerateContent` without `alt=sse`: the chunks as one JSON array.
        case jsonArray = "json-array"
    }

    /// The turn's whole answer.
    package func body(_ turn: AssistantTurn) -> OrderedJSON {
        switch self {
        case .openAIChat: OpenAIChatFormat.completion(turn)
        case .openAIResponses: OpenAIResponsesFormat.response(turn, status: OpenAIResponsesFormat.status(turn))
        case .anthropic: AnthropicFormat.message(turn)
        case .gemini: GeminiFormat.response(turn)
        }
    }

    /// The turn as Server-Sent Events, each with the pause before it.
    package func events(_ turn: AssistantTurn, includeUsage: Bool = true) -> [ServerSentEvent] {
        events(turn, includeUsage: includeUsage, script: TurnScript(turn)).map(\.event)
    }

    /// The turn's events as `script` orders them, each with the part it plays in the format's grammar.
    func events(_ turn: AssistantTurn, includeUsage: Bool, script: TurnScript) -> [TurnEvent] {
        switch self {
        case .openAIChat: OpenAIChatFormat.events(turn, includeUsage: includeUsage, script: script)
        case .openAIResponses: OpenAIResponsesFormat.events(turn, script: script)
        case .anthropic: AnthropicFormat.events(turn, script: script)
        case .gemini:
            GeminiFormat.chunks(turn, script: script).map {
                TurnEvent(.make(data: $0.json.text, delayMs: $0.delayMs), $0.role)
            }
        }
    }

    /// The event a provider sends when an answer fails midway (a server error, or Anthropic's overload), as the
    /// stream's last, after `sent` events.
    func errorEvent(after sent: Int) -> ServerSentEvent {
        switch self {
        case .openAIChat:
            let error: OrderedJSON = .object([
                ("message", .string("The server had an error while processing your request. Sorry about that!")),
                ("type", .string("server_error")), ("param", .null), ("code", .null),
            ])
            return .make(data: OrderedJSON.object([("error", error)]).text)
        case .openAIResponses:
            let error: OrderedJSON = .object([
                ("type", .string("error")), ("sequence_number", .int(sent)), ("code", .string("server_error")),
                ("message", .string("The server had an error while processing your request.")), ("param", .null),
            ])
            return .make(event: "error", data: error.text)
        case .anthropic:
            let error: OrderedJSON = .object([
                ("type", .string("overloaded_error")), ("message", .string("Overloaded")),
            ])
            return .make(event: "error", data: OrderedJSON.object([("type", .string("error")), ("error", error)]).text)
        case .gemini:
            let error: OrderedJSON = .object([
                ("code", .int(503)), ("message", .string("The model is overloaded. Please try again later.")),
                ("status", .string("UNAVAILABLE")),
            ])
            return .make(data: OrderedJSON.object([("error", error)]).text)
        }
    }

    /// `turn` as this format carries it, so as `TurnReader` reads it back: whole, its text and each call's arguments
    /// one piece without pauses; Anthropic and Gemini without `created`; Gemini's calls without ids, their arguments
    /// one piece (their pauses summed) of JSON with sorted keys, as Anthropic's whole `input` is; and where a format
    /// says only "completed" (Responses, Gemini's `STOP`), a turn that stops with calls finishes for them.
    package func carried(_ turn: AssistantTurn, streamed: Bool) -> AssistantTurn {
        var carried = turn
        if self == .anthropic || self == .gemini { carried.created = 0 }
        if !streamed {
            carried.text = turn.text.isEmpty ? [] : [AssistantTurn.Piece(turn.wholeText)]
            for index in carried.toolCalls.indices {
                let text = carried.toolCalls[index].argumentsText
                carried.toolCalls[index].arguments = [
                    AssistantTurn.Piece(self == .anthropic ? OrderedJSON.parsed(text).text : text)
                ]
            }
        }
        if self == .gemini {
            for index in carried.toolCalls.indices {
                let call = carried.toolCalls[index]
                carried.toolCalls[index].id = ""
                carried.toolCalls[index].arguments = [
                    AssistantTurn.Piece(
                        OrderedJSON.parsed(call.argumentsText).text,
                        delayMs: streamed ? call.arguments.map(\.delayMs).reduce(0, +) : 0)
                ]
            }
        }
        if self == .openAIResponses || self == .gemini, carried.finish == .stop || carried.finish == .toolCalls {
            carried.finish = carried.toolCalls.isEmpty ? .stop : .toolCalls
        }
        return carried
    }

    /// Gemini's chunks as one JSON array (`streamGenerateContent` without `alt=sse`); the other formats' whole
    /// answer.
    package func jsonArray(_ turn: AssistantTurn) -> OrderedJSON {
        guard self == .gemini else { return body(turn) }
        return .array(GeminiFormat.chunks(turn).map(\.json))
    }
}

/// A piece of a turn in the order a stream sends it: text, or a piece of a tool call's arguments.
enum TurnPart {
    case text(AssistantTurn.Piece)
    case toolCallStart(index: Int, AssistantTurn.ToolCall)
    case arguments(index: Int, AssistantTurn.Piece)
    case toolCallEnd(index: Int, AssistantTurn.ToolCall)

    /// The block the part belongs to.
    var block: TurnBlock {
        switch self {
        case .text: .text
        case .toolCallStart(let index, _), .arguments(let index, _), .toolCallEnd(let index, _): .call(index)
        }
    }

    /// The turn's parts in order: its text, then each tool call.
    static func of(_ turn: AssistantTurn) -> [TurnPart] {
        blocks(of: turn).flatMap { $0 }
    }

    /// The parts of each block in turn (its text, then each tool call's), taken one at a time from each block in
    /// turn: the deltas of two blocks interleaved, as a format with indexed deltas allows.
    static func interleaved(_ turn: AssistantTurn) -> [TurnPart] {
        var blocks = blocks(of: turn).map { $0[...] }
        var parts: [TurnPart] = []
        while blocks.contains(where: { !$0.isEmpty }) {
            for index in blocks.indices {
                if let part = blocks[index].popFirst() { parts.append(part) }
            }
        }
        return parts
    }

    private static func blocks(of turn: AssistantTurn) -> [[TurnPart]] {
        var blocks = turn.text.isEmpty ? [] : [turn.text.map(TurnPart.text)]
        for (index, call) in turn.toolCalls.enumerated() {
            blocks.append(
                [.toolCallStart(index: index, call)] + call.arguments.map { .arguments(index: index, $0) }
                    + [.toolCallEnd(index: index, call)])
        }
        return blocks
    }
}

/// A block of a turn: its text, or a tool call (by its index in the turn).
enum TurnBlock: Equatable {
    case text
    case call(Int)
}

/// How a turn's stream is sent: its parts in order, whether it says how it finished, and whether an event of a kind
/// the format does not have yet follows the first.
struct TurnScript {
    var parts: [TurnPart]
    var finished = true
    var newKind = false

    /// The turn as its format sends it.
    init(_ turn: AssistantTurn) {
        parts = TurnPart.of(turn)
    }
}

/// An event of a rendered turn and the part it plays in its format's grammar.
struct TurnEvent {
    enum Role: Equatable {
        /// Opens the answer (`message_start`, `response.created`, the chunk with the role).
        case opening
        case start(TurnBlock)
        case delta(TurnBlock)
        case stop(TurnBlock)
        /// Says how the turn finished.
        case finish
        /// The usage chunk of OpenAI Chat.
        case usage
        /// Ends the stream after the finish (`[DONE]`, `message_stop`).
        case end
        /// Anything else (`ping`, an event of a new kind).
        case other
    }

    var event: ServerSentEvent
    var role: Role

    init(_ event: ServerSentEvent, _ role: Role) {
        (self.event, self.role) = (event, role)
    }
}

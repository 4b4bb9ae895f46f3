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
        switch self {
        case .openAIChat: OpenAIChatFormat.events(turn, includeUsage: includeUsage)
        case .openAIResponses: OpenAIResponsesFormat.events(turn)
        case .anthropic: AnthropicFormat.events(turn)
        case .gemini: GeminiFormat.chunks(turn).map { .make(data: $0.json.text, delayMs: $0.delayMs) }
        }
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

    /// The turn's parts in order: its text, then each tool call.
    static func of(_ turn: AssistantTurn) -> [TurnPart] {
        var parts = turn.text.map(TurnPart.text)
        for (index, call) in turn.toolCalls.enumerated() {
            parts.append(.toolCallStart(index: index, call))
            parts += call.arguments.map { .arguments(index: index, $0) }
            parts.append(.toolCallEnd(index: index, call))
        }
        return parts
    }
}

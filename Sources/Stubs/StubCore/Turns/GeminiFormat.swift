/// Gemini (`POST /v1beta/models/MODEL:generateContent`, `:streamGenerateContent`): a `GenerateContentResponse`, or
/// one per chunk: each text piece a chunk of its own, each function call whole in one (Gemini does not split
/// arguments), the last chunk with `finishReason` and `usageMetadata`.
enum GeminiFormat {
    static func finishReason(_ finish: AssistantTurn.Finish) -> String {
        switch finish {
        case .stop, .toolCalls: "STOP"
        case .length: "MAX_TOKENS"
        case .contentFilter: "SAFETY"
        }
    }

    static func usage(_ turn: AssistantTurn) -> OrderedJSON {
        .object([
            ("promptTokenCount", .int(turn.usage.input)), ("candidatesTokenCount", .int(turn.usage.output)),
            ("totalTokenCount", .int(turn.usage.input + turn.usage.output)),
        ])
    }

    static func functionCall(_ call: AssistantTurn.ToolCall) -> OrderedJSON {
        .object([
            (
                "functionCall",
                // No `id`: the Gemini API leaves it out (a client matches a call's answer by its name).
                .object([("name", .string(call.name)), ("args", OrderedJSON.parsed(call.argumentsText))])
            )
        ])
    }

    /// A response with one candidate holding `parts`, finished or not.
    static func response(_ turn: AssistantTurn, parts: [OrderedJSON], finished: Bool) -> OrderedJSON {
        var candidate: [(String, OrderedJSON)] = [
            ("content", .object([("parts", .array(parts)), ("role", .string("model"))]))
        ]
        if finished { candidate.append(("finishReason", .string(finishReason(turn.finish)))) }
        candidate.append(("index", .int(0)))
        var fields: [(String, OrderedJSON)] = [("candidates", .array([.object(candidate)]))]
        if finished { fields.append(("usageMetadata", usage(turn))) }
        fields.append(("modelVersion", .string(turn.model)))
        fields.append(("responseId", .string(turn.id)))
        return .object(fields)
    }

    static func response(_ turn: AssistantTurn) -> OrderedJSON {
        let text: [OrderedJSON] = turn.text.isEmpty ? [] : [.object([("text", .string(turn.wholeText))])]
        return response(turn, parts: text + turn.toolCalls.map(functionCall), finished: true)
    }

    /// The stream's chunks with the pause before each: one per text piece, one per function call; the last one
    /// finished.
    static func chunks(_ turn: AssistantTurn) -> [(json: OrderedJSON, delayMs: Int)] {
        var pieces: [(parts: [OrderedJSON], delayMs: Int)] = turn.text.map {
            ([.object([("text", .string($0.text))])], $0.delayMs)
        }
        pieces += turn.toolCalls.map { ([functionCall($0)], $0.arguments.map(\.delayMs).reduce(0, +)) }
        if pieces.isEmpty { pieces = [([], 0)] }
        return pieces.enumerated().map { index, piece in
            (response(turn, parts: piece.parts, finished: index == pieces.count - 1), piece.delayMs)
        }
    }
}

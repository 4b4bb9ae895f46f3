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
    /// finished (unless the script says it is not).
    static func chunks(_ turn: AssistantTurn, script: TurnScript) -> [(
        json: OrderedJSON, delayMs: Int, role: TurnEvent.Role
    )] {
        var pieces: [(parts: [OrderedJSON], delayMs: Int, role: TurnEvent.Role)] = []
        for part in script.parts {
            switch part {
            case .text(let piece):
                pieces.append(([.object([("text", .string(piece.text))])], piece.delayMs, .delta(.text)))
            case .toolCallStart(let index, let call):
                pieces.append(([functionCall(call)], call.arguments.map(\.delayMs).reduce(0, +), .start(.call(index))))
            case .arguments, .toolCallEnd: continue
            }
        }
        if script.newKind {
            // A part of a kind the format did not have, as `thought` and `executableCode` parts once were new.
            let part: OrderedJSON = .object([("futurePart", .object([("note", .string("a new kind of part"))]))])
            pieces.insert(([part], 0, .other), at: min(1, pieces.count))
        }
        if pieces.isEmpty { pieces = [([], 0, .other)] }
        return pieces.enumerated().map { index, piece in
            // The last chunk finishes the turn, and keeps the role of its part (a call's start).
            (
                response(turn, parts: piece.parts, finished: index == pieces.count - 1 && script.finished),
                piece.delayMs,
                piece.role
            )
        }
    }

    /// The stream's chunks as the turn is sent.
    static func chunks(_ turn: AssistantTurn) -> [(json: OrderedJSON, delayMs: Int)] {
        chunks(turn, script: TurnScript(turn)).map { ($0.json, $0.delayMs) }
    }
}

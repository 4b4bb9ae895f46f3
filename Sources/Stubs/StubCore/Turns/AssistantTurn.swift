/// One assistant turn of a model API, described once and answered in each provider's wire format (`TurnFormat`):
/// its text in pieces, its tool calls (their JSON arguments in pieces), how it finished, and the tokens it used.
package struct AssistantTurn: Sendable, Equatable {
    /// A piece of text as one delta carries it, and the pause before it.
    package struct Piece: Sendable, Equatable {
        package var text: String
        package var delayMs: Int

        package init(_ text: String, delayMs: Int = 0) {
            (self.text, self.delayMs) = (text, delayMs)
        }
    }

    /// A call of one of the request's tools: its arguments are JSON text, sent in `arguments`' pieces.
    package struct ToolCall: Sendable, Equatable {
        package var id: String
        package var name: String
        package var arguments: [Piece]

        package init(id: String, name: String, arguments: [Piece]) {
            (self.id, self.name, self.arguments) = (id, name, arguments)
        }

        /// The whole arguments' JSON text.
        package var argumentsText: String { arguments.map(\.text).joined() }
    }

    /// Why the turn ended, in the package's words; each format names it its own way.
    package enum Finish: String, Sendable, Equatable, CaseIterable {
        /// The answer is complete.
        case stop
        /// The output token limit cut it.
        case length
        /// It stops to have its tool calls run.
        case toolCalls = "tool-calls"
        /// A content filter or a refusal ended it.
        case contentFilter = "content-filter"
    }

    /// Tokens read and written.
    package struct Usage: Sendable, Equatable {
        package var input: Int
        package var output: Int

        package init(input: Int, output: Int) {
            (self.input, self.output) = (input, output)
        }
    }

    /// Names each format's ids are made from (`chatcmpl-ID`, `msg_ID`, `resp_ID`).
    package var id: String
    package var model: String
    /// Seconds since 1970, for the formats that say when the answer was made.
    package var created: Int
    package var text: [Piece]
    package var toolCalls: [ToolCall]
    package var finish: Finish
    package var usage: Usage

    package init(
        id: String, model: String, created: Int = 1_765_000_000, text: [Piece], toolCalls: [ToolCall] = [],
        finish: Finish? = nil, usage: Usage = Usage(input: 0, output: 0)
    ) {
        (self.id, self.model, self.created, self.text, self.toolCalls) = (id, model, created, text, toolCalls)
        self.finish = finish ?? (toolCalls.isEmpty ? .stop : .toolCalls)
        self.usage = usage
    }

    /// The whole text.
    package var wholeText: String { text.map(\.text).joined() }

    /// The turn as a turn file holds it (`"turn": {"file": ...}`), each piece with its pause.
    package var fileJSON: OrderedJSON {
        func pieces(_ pieces: [Piece]) -> OrderedJSON {
            .array(pieces.map { .object([("text", .string($0.text)), ("delayMs", .int($0.delayMs))]) })
        }
        return .object([
            ("id", .string(id)), ("model", .string(model)), ("created", .int(created)), ("text", pieces(text)),
            (
                "toolCalls",
                .array(
                    toolCalls.map {
                        .object([
                            ("id", .string($0.id)), ("name", .string($0.name)), ("arguments", pieces($0.arguments)),
                        ])
                    })
            ),
            ("finish", .string(finish.rawValue)),
            ("usage", .object([("input", .int(usage.input)), ("output", .int(usage.output))])),
        ])
    }
}

import HTTPMessages
import StubCore
import StubMutations

/// MockData's assistant turn (`MockData/assistant/turn.json`): rendering it in each provider's stream format, and
/// listing the mutants of Anthropic's stream, the format with the most event types after OpenAI Responses.
enum TurnBenchmark {
    static let turn = AssistantTurn(
        id: "dessert-7", model: "catalog-assistant-1",
        text: ["Here's", " a dessert", " for tonight:", " Apam balik.", " Let me find", " its recipe."].map {
            AssistantTurn.Piece($0, delayMs: 40)
        },
        toolCalls: [
            AssistantTurn.ToolCall(
                id: "call_recipe_1", name: "find_recipe",
                arguments: ["{\"dess", "ert\": \"Apam", " balik\", \"serv", "ings\": 2}"].map {
                    AssistantTurn.Piece($0)
                })
        ],
        usage: AssistantTurn.Usage(input: 48, output: 31))

    /// The turn rendered as each of the four formats' streams and whole answers, once per iteration.
    static func render() async throws -> BenchmarkResult {
        var events = 0
        var result = await BenchmarkResult.measure(iterations: 200, unit: "rendering") {
            events = 0
            for format in TurnFormat.allCases {
                events += format.events(turn).count
                events += format.body(turn).text.utf8.count > 0 ? 1 : 0
            }
        }
        result.unit = "rendering of the four formats, streamed and whole (\(events) events and answers)"
        return result
    }

    /// Every mutant of the Anthropic stream listed from its events, afresh each time.
    static func listAnthropic() async throws -> BenchmarkResult {
        let stream = MutableEventStream(TurnFormat.anthropic.events(turn), status: 200, headers: HTTPHeaders())
        var count = 0
        var result = await BenchmarkResult.measure(iterations: 20, unit: "listing") {
            count = EventStreamMutations.listed(fromScratch: stream).count
        }
        result.unit = "listing of \(count) mutants, \(MutationBenchmark.perSecond(count, result)) mutants/s"
        return result
    }
}

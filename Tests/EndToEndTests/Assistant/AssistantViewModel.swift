import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An assistant screen with a tool, written with care, for any of four model APIs: it streams the answer's text
/// as it comes, runs the turn's tool call (`find_recipe`) once the turn is complete and its arguments are whole, and
/// ends on the answer with the tool's result, a readable failure or an offer to try again: never on a spinner,
/// never with a tool run on arguments cut short, never with a cut or filtered answer shown as complete.
///
/// - Reads come through a data delegate, cut anywhere (`ByteStream`, `EventStreamParser`); `TurnAssembler`
///   reads each provider's events.
/// - 429, 503 and 529 offer to try again; any other status, or a body that is not an event stream, fails.
/// - A stream that ends without saying how the turn finished, or ends on the provider's busy error, offers to try
///   again; one cut by the output limit too ("cut short"); a filter or refusal fails ("declined").
/// - A tool call is run only when its name is known and its arguments are a JSON object with the keys it needs.
@MainActor
final class AssistantViewModel {
    enum Screen: Equatable, Sendable {
        case idle
        case thinking
        case streaming(String)
        case runningTool(String)
        case answered(String)
        case failed(String)
        case retryOffered(String)

        var isFinal: Bool {
            switch self {
            case .answered, .failed, .retryOffered: true
            case .idle, .thinking, .streaming, .runningTool: false
            }
        }
    }

    /// The tool's arguments.
    struct RecipeQuery: Decodable, Equatable, Sendable {
        var dessert: String
        var servings: Int
    }

    private(set) var screen = Screen.idle {
        didSet { screens.append(screen) }
    }
    /// Every screen shown, in order.
    private(set) var screens: [Screen] = []
    /// Each tool call run, with its arguments.
    private(set) var toolRuns: [RecipeQuery] = []

    private let provider: TurnAssembler.Provider
    private let url: URL
    private let configuration: URLSessionConfiguration

    init(
        _ provider: TurnAssembler.Provider, base: URL, configuration: URLSessionConfiguration,
        idleTimeout: TimeInterval = 10
    ) {
        let configuration = configuration.copy() as! URLSessionConfiguration
        configuration.timeoutIntervalForRequest = idleTimeout
        configuration.urlCache = nil
        self.provider = provider
        url = URL(string: base.absoluteString + provider.path + (provider == .gemini ? "?alt=sse" : ""))!
        self.configuration = configuration
    }

    private enum Ending: Error {
        case failed(String)
        case retry(String)
    }

    /// Asks for an answer, shows it as it comes, and runs its tool call.
    func ask(_ prompt: String) async {
        screen = .thinking
        do {
            let turn = try await receive(prompt)
            switch try turn.ended() {
            case nil: throw Ending.retry("The answer was cut off. Try again.")
            case .cutShort?: throw Ending.retry("The answer was cut short. Try again.")
            case .declined?: throw Ending.failed("The assistant declined to answer.")
            case .complete?: break
            }
            var results: [String] = []
            for call in turn.calls {
                guard call.name == "find_recipe",
                    let query = try? JSONDecoder().decode(RecipeQuery.self, from: Data(call.arguments.utf8))
                else { throw Ending.retry("The assistant's tool call arrived incomplete. Try again.") }
                screen = .runningTool(call.name)
                toolRuns.append(query)
                results.append(Self.findRecipe(query))
            }
            guard !turn.text.isEmpty || !results.isEmpty else {
                throw Ending.failed("The assistant sent an empty answer.")
            }
            screen = .answered(([turn.text] + results).filter { !$0.isEmpty }.joined(separator: "\n"))
        } catch Ending.failed(let message) {
            screen = .failed(message)
        } catch Ending.retry(let message) {
            screen = .retryOffered(message)
        } catch TurnAssembler.Failure.providerError(let message, let busy) {
            screen = busy ? .retryOffered(message) : .failed(message)
        } catch TurnAssembler.Failure.lost {
            screen = .retryOffered("Part of the answer was lost. Try again.")
        } catch TurnAssembler.Failure.garbled {
            screen = .failed("The answer arrived garbled.")
        } catch {
            screen = .retryOffered("The answer was cut off. Try again.")
        }
    }

    /// The tool: a recipe book of one.
    nonisolated static func findRecipe(_ query: RecipeQuery) -> String {
        guard query.dessert == "Apam balik" else { return "No recipe for \(query.dessert)." }
        return "Apam balik for \(query.servings): a folded peanut pancake, 25 minutes."
    }

    /// The provider's request for a streamed answer.
    private func request(_ prompt: String) throws -> URLRequest {
        var request = URLRequest(url: url, timeoutInterval: configuration.timeoutIntervalForRequest)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
        let tool: [String: Any] = [
            "name": "find_recipe",
            "parameters": [
                "type": "object", "properties": ["dessert": ["type": "string"], "servings": ["type": "integer"]],
            ],
        ]
        let body: [String: Any] =
            switch provider {
            case .gemini:
                [
                    "contents": [["role": "user", "parts": [["text": prompt]]]],
                    "tools": [["functionDeclarations": [tool]]],
                ]
            case .openAIResponses:
                ["model": "catalog-assistant-1", "stream": true, "input": prompt, "tools": [tool]]
            case .openAIChat, .anthropic:
                [
                    "model": "catalog-assistant-1", "stream": true, "max_tokens": 1024,
                    "messages": [["role": "user", "content": prompt]], "tools": [tool],
                ]
            }
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
        return request
    }

    /// The turn as one connection brought it, its text shown as it came.
    private func receive(_ prompt: String) async throws -> TurnAssembler {
        var turn = TurnAssembler(provider)
        var parser = EventStreamParser()
        do {
            for try await arrival in ByteStream.open(try request(prompt), configuration: configuration) {
                switch arrival {
                case .response(let status, let type):
                    if [429, 503, 529].contains(status) { throw Ending.retry("The assistant is busy. Try again.") }
                    guard status == 200, type?.lowercased().hasPrefix("text/event-stream") == true else {
                        throw Ending.failed("The assistant could not answer (status \(status)).")
                    }
                case .bytes(let bytes):
                    for event in parser.feed(bytes) {
                        let shown = turn.text
                        try turn.take(event)
                        if turn.text != shown { screen = .streaming(turn.text) }
                    }
                }
            }
        } catch let ending as Ending {
            throw ending
        } catch let failure as TurnAssembler.Failure {
            throw failure
        } catch {
            // The connection broke: what came is the turn so far, finished only if it said so.
            if turn.finish == nil { throw Ending.retry("The answer was cut off. Try again.") }
        }
        return turn
    }
}

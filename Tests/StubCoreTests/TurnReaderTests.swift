import Foundation
import StubCore
import StubMutations
import TestTurns
import Testing

/// Every format's rendering of a turn reads back as the turn the format carries (`TurnFormat.carried`), streamed
/// and whole; and a stream that leaves its grammar is refused with where and why.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct TurnReaderTests {
    static let turns: [AssistantTurn] = [
        AssistantTurn(
            id: "dessert-7", model: "catalog-assistant-1",
            text: [.init("Here's", delayMs: 180), .init(" a dessert", delayMs: 45), .init("", delayMs: 3)],
            toolCalls: [
                .init(
                    id: "call_1", name: "find_recipe",
                    arguments: [
                        .init("{\"dess", delayMs: 60), .init("ert\": \"Apam", delayMs: 30),
                        .init(" balik\", \"x\": 2.5}"),
                    ])
            ], usage: .init(input: 48, output: 31)),
        AssistantTurn(id: "t2", model: "m", created: 7, text: [.init("Only text, \"quoted\" é")], finish: .length),
        AssistantTurn(
            id: "t3", model: "m", text: [],
            toolCalls: [
                .init(id: "a", name: "one", arguments: [.init("{}")]),
                .init(
                    id: "b", name: "two", arguments: [.init("{\"list\": [1, true, null, {\"k\": \"v\"}]}", delayMs: 9)]),
            ], finish: .stop, usage: .init(input: 1, output: 2)),
        AssistantTurn(id: "t4", model: "m", text: [.init("Declined.")], finish: .contentFilter),
    ]

    @Test(arguments: TurnFormat.allCases)
    func eachRendering_readsBackAsTheTurnItsFormatCarries(_ format: TurnFormat) throws {
        for turn in Self.turns {
            #expect(try TurnReader.read(format.events(turn), as: format) == format.carried(turn, streamed: true))
            let whole = Array(format.body(turn).text.utf8)
            #expect(try TurnReader.read(whole: whole, as: format) == format.carried(turn, streamed: false))
            if format == .gemini {
                var unpaused = format.carried(turn, streamed: true)
                unpaused.text = unpaused.text.map { .init($0.text) }
                for index in unpaused.toolCalls.indices {
                    unpaused.toolCalls[index].arguments = unpaused.toolCalls[index].arguments.map { .init($0.text) }
                }
                #expect(try TurnReader.read(whole: Array(format.jsonArray(turn).text.utf8), as: format) == unpaused)
            }
        }
    }

    /// The grammar's mutants that leave it (a block never stopped or started twice, the finish or the end
    /// missing, an event of a new kind, the error after an event) are refused, each with the event it stops at.
    @Test(arguments: [
        (TurnFormat.anthropic, "call[1]:never-stopped", "event 12 (message_delta): a block never stopped"),
        (.anthropic, "text:started-twice", "event 3 (content_block_start): block 0 started twice"),
        (.anthropic, "end:missing", "event 13 (message_delta): the stream does not end with message_stop"),
        (.anthropic, "events:new-kind", "event 2 (future_event): future_event is not an event of anthropic"),
        (.openAIChat, "end:missing", "event 10: the stream does not end with [DONE]"),
        (.openAIChat, "finish:missing", "nothing says how the turn finished"),
        (.openAIResponses, "call[1]:started-twice", "event 12 (response.output_item.added): output 1 added twice"),
        (.openAIResponses, "event[3]:then-error", "event 4 (error): error is not an event of openai-responses"),
        (.gemini, "finish:missing", "event 4: the last chunk has no finishReason"),
    ])
    func aStreamThatLeavesItsGrammar_isRefusedWhereItLeaves(_ format: TurnFormat, _ id: String, _ message: String)
        throws
    {
        let turn = Self.turns[0]
        let stream = MutableEventStream(
            format.events(turn), status: 200, headers: .init(),
            grammar: TurnMutations.of(turn, format, includeUsage: true))
        let mutant = try #require(EventStreamMutations.mutant(id, of: stream))
        guard case .stream(_, _, let blocks, _) = mutant.apply(to: stream) else { throw CancellationError() }
        let events = try #require(
            try? EventStreamFile.parse(blocks.flatMap(\.pieces).flatMap(\.bytes)), "\(id) does not parse")
        #expect(throws: TurnReader.Problem(message)) { try TurnReader.read(events, as: format) }
    }
}

extension TurnReaderTests {
    static func chunk(_ delta: String, finish: String? = nil) -> ServerSentEvent {
        let reason = finish.map { "\"\($0)\"" } ?? "null"
        return .make(
            data: #"{"id":"chatcmpl-t","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"#
                + #""delta":\#(delta),"finish_reason":\#(reason)}]}"#)
    }

    /// What other servers send and the renderer does not: text beside the role, a call whole in its first chunk.
    @Test func chat_readsTextBesideTheRole_andACallSentWhole() throws {
        let events = [
            Self.chunk(#"{"role":"assistant","content":"Hi"}"#),
            Self.chunk(#"{"tool_calls":[{"index":0,"id":"c1","function":{"name":"f","arguments":"{\"a\":1}"}}]}"#),
            Self.chunk("{}", finish: "tool_calls"), .make(data: "[DONE]"),
        ]
        let turn = try TurnReader.read(events, as: .openAIChat)
        #expect(turn.wholeText == "Hi")
        #expect(turn.toolCalls.map(\.argumentsText) == [#"{"a":1}"#])
    }

    /// A Responses stream holding an item a turn cannot hold, or going on after its end, leaves the grammar.
    @Test func responses_refusesOtherItems_andEventsAfterTheEnd() throws {
        let turn = Self.turns[1]
        var events = TurnFormat.openAIResponses.events(turn)
        let reasoning = ServerSentEvent.make(
            event: "response.output_item.added",
            data: #"{"type":"response.output_item.added","sequence_number":2,"output_index":1,"#
                + #""item":{"id":"rs_1","type":"reasoning"}}"#)
        var withReasoning = events
        withReasoning.insert(reasoning, at: 2)
        #expect(throws: TurnReader.Problem("event 3 (response.output_item.added): an output item of type reasoning")) {
            try TurnReader.read(withReasoning, as: .openAIResponses)
        }
        let last = try #require(events.last)
        let again = last.lines.map {
            $0.replacingOccurrences(
                of: "\"sequence_number\":\(events.count - 1)", with: "\"sequence_number\":\(events.count)")
        }
        events.append(ServerSentEvent(lines: again))
        #expect(throws: TurnReader.Problem("event \(events.count) (response.incomplete): an event after the end")) {
            try TurnReader.read(events, as: .openAIResponses)
        }
    }
}

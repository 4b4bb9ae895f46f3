import HTTPMessages
import TestTurns
import Testing

@testable import StubMutations

/// The mutants of a WebSocket conversation do what their descriptions say, on a script that greets, answers a
/// subscription with two messages, and closes.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct ConversationMutationsTests {
    static let conversation = MutableConversation(steps: [
        .send(.text(#"{"type":"hello"}"#), delayMs: 0),
        .reply(
            on: 1, send: [.text(#"{"type":"subscribed"}"#), .text(#"{"type":"chart","rank":1}"#)], delayMs: 50),
        .close(code: 1000, reason: "bye", afterMs: 5_000),
    ])

    static func applied(_ id: String) throws -> MutableConversation {
        try #require(ConversationMutations.mutant(id, of: conversation), "no mutant \(id)").apply(to: conversation)
    }

    /// The server's messages in script order, as text (binary as `binary:` and its text).
    static func messages(_ conversation: MutableConversation) -> [String] {
        conversation.messages.compactMap { place in
            switch conversation.message(at: place) {
            case .text(let text)?: text
            case .binary(let bytes)?: "binary:" + String(decoding: bytes, as: UTF8.self)
            case .fragmented(.text(let text), let frames)?: "\(frames) frames:" + text
            default: nil
            }
        }
    }

    @Test func theMutants_areListedOnce_inAStableOrder() {
        let ids = ConversationMutations.of(Self.conversation).map(\.id)
        #expect(Set(ids).count == ids.count)
        #expect(Array(ids.prefix(3)) == ["conversation:ping-flood", "conversation:no-close", "message[1]:dropped"])
        #expect(!ids.contains("message[1]:swapped-with-next"), "the greeting has no next message in its step")
        #expect(ids.contains("message[2]:swapped-with-next") && !ids.contains("message[3]:swapped-with-next"))
        #expect(ids.contains("message[3].rank:minus-one") && ids.contains("message[1].type:null"))
        #expect(ids.filter { $0.hasPrefix("message[2]:then-") }.count == 6)
    }

    @Test(arguments: [
        ("message[1]:dropped", [#"{"type":"subscribed"}"#, #"{"type":"chart","rank":1}"#]),
        (
            "message[2]:twice",
            [#"{"type":"hello"}"#, #"{"type":"subscribed"}"#, #"{"type":"subscribed"}"#, #"{"type":"chart","rank":1}"#]
        ),
        (
            "message[2]:swapped-with-next",
            [#"{"type":"hello"}"#, #"{"type":"chart","rank":1}"#, #"{"type":"subscribed"}"#]
        ),
        (
            "message[3]:as-binary",
            [#"{"type":"hello"}"#, #"{"type":"subscribed"}"#, #"binary:{"type":"chart","rank":1}"#]
        ),
        (
            "message[1]:fragmented",
            [#"3 frames:{"type":"hello"}"#, #"{"type":"subscribed"}"#, #"{"type":"chart","rank":1}"#]
        ),
        (
            "message[3].rank:minus-one",
            [#"{"type":"hello"}"#, #"{"type":"subscribed"}"#, #"{"type":"chart","rank":-1}"#]
        ),
    ])
    func theMessages_comeAsTheMutantSays(_ id: String, _ expected: [String]) throws {
        #expect(Self.messages(try Self.applied(id)) == expected)
    }

    /// A message's JSON as a whole is mutated as a value is (`message[3]:null`, `:as-array`, ...); the others stay.
    @Test(arguments: [
        ("message[3]:null", "null"), ("message[3]:as-array", "[]"), ("message[3]:as-string", #""retyped""#),
        ("message[3]:empty", "{}"),
    ])
    func aMessagesWholeJSON_isMutated(_ id: String, _ text: String) throws {
        #expect(
            Self.messages(try Self.applied(id)) == [#"{"type":"hello"}"#, #"{"type":"subscribed"}"#, text])
    }

    /// Two messages whose texts are canonically equal but differ in bytes (`é`, and `e` with a combining accent):
    /// swapping them changes what goes on the wire, so it is listed, and found again by its ID.
    @Test func swappingCanonicallyEqualTexts_isAMutant() {
        let conversation = MutableConversation(steps: [
            .send(.text("\u{E9}"), delayMs: 0), .send(.text("e\u{301}"), delayMs: 0),
        ])
        #expect(ConversationMutations.of(conversation).contains { $0.id == "message[1]:swapped-with-next" })
        #expect(ConversationMutations.mutant("message[1]:swapped-with-next", of: conversation) != nil)
    }

    @Test func aCloseOrADrop_followsItsMessage_andNoCloseLeavesTheSocketOpen() throws {
        guard case .reply(_, let sends, let delayMs) = try Self.applied("message[2]:then-close-1008").steps[1] else {
            Issue.record("the answer is gone")
            return
        }
        #expect(sends.count == 3 && delayMs == 50)
        #expect(sends[1] == .close(code: 1008, reason: "policy violation"))
        let dropped = try Self.applied("message[1]:then-drop").steps
        #expect(dropped[0] == .send(.text(#"{"type":"hello"}"#), delayMs: 0) && dropped[1] == .send(.drop, delayMs: 0))
        let open = try Self.applied("conversation:no-close").steps
        #expect(open.count == 2 && !open.contains { if case .close = $0 { true } else { false } })
        let flood = try Self.applied("conversation:ping-flood").steps
        #expect(flood.prefix(100).allSatisfy { $0 == .send(.ping([]), delayMs: 0) } && flood.count == 103)
    }
}

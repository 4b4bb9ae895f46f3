// The conversation half of the stream-mutations target (StreamMutationsFuzzer.swift calls it for an input that
// begins with "ws\n"). The rest of the input is a script, a step per line:
//   > TEXT          send TEXT when the socket opens        b TEXT       send TEXT's bytes as binary
//   ? TEXT|TEXT     answer a client's message with these   x CODE       close with CODE
//   !               drop the connection                    (any other line is left out)
// Properties, not only survival:
// - the mutants have unique, non-empty IDs and descriptions, the same list twice, the first and last found again;
// - each listed mutant changes the conversation, no two alike, and each alias resolves;
// - applied (all but the huge ones), a message dropped or twice leaves one message fewer or one more; swapped, the
//   same messages in another order; as binary or fragmented, the same count with that message changed so; a close
//   or drop after message N comes right after it; the ping flood opens with its pings; no close leaves no step that
//   ends the socket and every message; a JSON message mutated is still one message, of JSON text.

import HTTPMessages

/// The script an input describes (see the top of this file).
func conversation(reading input: Slice<UnsafeBufferPointer<UInt8>>) -> MutableConversation {
    let lines = String(decoding: input, as: UTF8.self).split(separator: "\n")
    var steps: [MutableConversation.Step] = []
    for line in lines {
        let rest = String(line.dropFirst(2))
        switch line.first {
        case ">": steps.append(.send(.text(rest), delayMs: 0))
        case "b": steps.append(.send(.binary(Array(rest.utf8)), delayMs: 0))
        case "?":
            let sends = rest.split(separator: "|", omittingEmptySubsequences: false).map {
                WebSocketOutput.Kind.text(String($0))
            }
            steps.append(.reply(on: steps.count, send: sends, delayMs: 0))
        case "x": steps.append(.close(code: UInt16(rest) ?? 1000, reason: "", afterMs: 0))
        case "!": steps.append(.drop(afterMs: 0))
        default: continue
        }
    }
    return MutableConversation(steps: steps)
}

/// Checks the mutants of `conversation` (see the top of this file); traps when one does not hold.
func checkConversationMutations(of conversation: MutableConversation) {
    let mutants = ConversationMutations.of(conversation)
    precondition(Set(mutants.map(\.id)).count == mutants.count, "duplicate IDs")
    precondition(mutants.allSatisfy { !$0.id.isEmpty && !$0.description.isEmpty })
    precondition(ConversationMutations.of(conversation).map(\.id) == mutants.map(\.id), "a second list differs")
    for mutant in [mutants.first, mutants.last].compactMap({ $0 }) {
        precondition(
            ConversationMutations.mutant(mutant.id, of: conversation)?.id == mutant.id, "\(mutant.id) not found again")
    }
    // Each listed mutant changes the conversation, and no two change it alike; a twin's ID still resolves.
    var seen = [(conversation, "the conversation")]
    let small = mutants.filter { if case .conversation(.json(_, _, .huge)) = $0.change { false } else { true } }
    for mutant in small.count <= 24 ? small : (0..<24).map({ small[$0 * small.count / 24] }) {
        let mutated = mutant.apply(to: conversation)
        if let twin = seen.first(where: { $0.0 == mutated }) {
            preconditionFailure("\(mutant.id) does what \(twin.1) does")
        }
        seen.append((mutated, mutant.id))
        for alias in mutant.aliases {
            precondition(ConversationMutations.mutant(alias, of: conversation) != nil, "\(alias) does not resolve")
        }
    }
    for mutant in mutants.prefix(64) where !mutant.id.hasSuffix(":huge") {
        // Each mutant is told by its change, not its ID: a quoted JSON key may hold any text, `:then-close-` too.
        guard case .conversation(let change) = mutant.change else {
            preconditionFailure("\(mutant.id) is no conversation's")
        }
        check(mutant.id, change, applied: mutant.apply(to: conversation), to: conversation)
    }
}

/// Checks `mutated`, what `change` (named `id`) made of `conversation`; traps when it does not hold.
private func check(
    _ id: String, _ change: ConversationChange, applied mutated: MutableConversation,
    to conversation: MutableConversation
) {
    let messages = conversation.outputs.filter(\.isMessage)
    let outputs = mutated.outputs
    let mutatedMessages = outputs.filter(\.isMessage)
    switch change {
    case .pingFlood:
        precondition(mutated.steps.count == conversation.steps.count + ConversationChange.pingFloodCount, id)
        precondition(
            mutated.steps.prefix(ConversationChange.pingFloodCount).allSatisfy { $0 == .send(.ping([]), delayMs: 0) },
            id)
    case .noClose:
        precondition(!mutated.steps.contains(where: \.endsTheSocket) && mutatedMessages == messages, id)
    case .message(let number, let messageChange):
        precondition(id.hasPrefix("message[\(number)]:") && number >= 1 && number <= messages.count, id)
        let place = outputs.indices.filter { outputs[$0].isMessage }
        switch messageChange {
        case .dropped: precondition(mutatedMessages.count == messages.count - 1, id)
        case .twice: precondition(mutatedMessages.count == messages.count + 1, id)
        case .swapped:
            precondition(mutatedMessages.map { "\($0)" }.sorted() == messages.map { "\($0)" }.sorted(), id)
            precondition(
                mutatedMessages[number - 1] == messages[number] && mutatedMessages[number] == messages[number - 1], id)
        case .asBinary:
            precondition(mutatedMessages.count == messages.count, id)
            guard case .text(let text) = messages[number - 1] else { preconditionFailure("\(id) of no text") }
            precondition(mutatedMessages[number - 1] == .binary(Array(text.utf8)), id)
        case .fragmented:
            precondition(mutatedMessages.count == messages.count, id)
            guard case .fragmented(_, frames: 3) = mutatedMessages[number - 1] else { preconditionFailure(id) }
        case .thenDrop:
            precondition(mutatedMessages == messages && outputs[place[number - 1] + 1] == .drop, id)
        case .thenClose(let code):
            precondition(mutatedMessages == messages && id == "message[\(number)]:then-close-\(code)", id)
            guard case .close(code, _) = outputs[place[number - 1] + 1] else { preconditionFailure(id) }
            precondition(WebSocketCloseCode.maySend(Int(code)), id)
        }
    case .json(let number, _, _):
        // The same messages but the Nth, JSON text still.
        precondition(id.hasPrefix("message[\(number)]") && number >= 1 && number <= messages.count, id)
        precondition(mutatedMessages.count == messages.count, id)
        guard case .text(let text) = mutatedMessages[number - 1], JSONNode(parsing: Array(text.utf8)) != nil
        else { preconditionFailure("\(id) is no JSON text") }
    }
}

extension MutableConversation {
    /// What the server sends or does, in script order: each opening message or frame, each answer's, each close
    /// and drop.
    fileprivate var outputs: [WebSocketOutput.Kind] {
        steps.flatMap { step -> [WebSocketOutput.Kind] in
            switch step {
            case .send(let kind, _): [kind]
            case .reply(_, let sends, _): sends
            case .close(let code, let reason, _): [.close(code: code, reason: reason)]
            case .drop: [.drop]
            }
        }
    }
}

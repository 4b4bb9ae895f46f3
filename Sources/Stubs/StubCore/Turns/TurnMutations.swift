package import StubMutations

/// The mutants of a streamed turn that follow its format's grammar, made from the turn: a tool call's arguments cut
/// at each delta boundary or split inside a JSON token, two blocks' deltas interleaved, a block started twice or
/// never stopped, the finish or the end missing, each other finish, usage zero, an event of a new kind, and the
/// provider's error event after each event. Listed before the stream's own mutants, which give the rest (each event
/// dropped, twice, split; each event type's data changed); a mutant that sends what an earlier one sends is listed
/// once.
package enum TurnMutations {
    /// The grammar's mutants of `turn` streamed in `format`.
    package static func of(_ turn: AssistantTurn, _ format: TurnFormat, includeUsage: Bool) -> [Mutation] {
        let script = TurnScript(turn)
        let good = format.events(turn, includeUsage: includeUsage, script: script)
        var mutants: [Mutation] = []
        func add(_ id: String, _ description: String, _ events: [TurnEvent]) {
            // A server that sends an event twice or leaves one out still numbers what it sends in order.
            let blocks = events.enumerated().map { position, event in
                MutableEventStream.Block(format == .openAIResponses ? numbered(event.event, position) : event.event)
            }
            mutants.append(.rewriting(id: id, description: description, blocks: blocks))
        }
        func rendered(_ turn: AssistantTurn, _ script: TurnScript) -> [TurnEvent] {
            format.events(turn, includeUsage: includeUsage, script: script)
        }
        var blocks: [(name: String, block: TurnBlock)] = turn.text.isEmpty ? [] : [("text", .text)]
        blocks += turn.toolCalls.indices.map { ("call[\($0 + 1)]", .call($0)) }
        for (name, block) in blocks {
            if let start = good.firstIndex(where: { $0.role == .start(block) }) {
                var events = good
                events.insert(good[start], at: start + 1)
                add("\(name):started-twice", "the event that starts \(describe(block)) sent twice", events)
            }
            if good.contains(where: { $0.role == .stop(block) }) {
                add(
                    "\(name):never-stopped", "the events that end \(describe(block)) left out",
                    good.filter { $0.role != .stop(block) })
            }
        }
        // Gemini sends a call's arguments whole, as an object: there is nothing to cut.
        if format != .gemini {
            for (index, call) in turn.toolCalls.enumerated() {
                let name = "call[\(index + 1)].arguments"
                for count in 0..<call.arguments.count {
                    var cut = turn
                    cut.toolCalls[index].arguments = Array(call.arguments.prefix(count))
                    add(
                        "\(name):cut-after-\(count)",
                        "tool call \(index + 1)'s arguments end after \(count) of \(call.arguments.count) pieces, "
                            + "as if complete", rendered(cut, TurnScript(cut)))
                }
                for (number, token) in tokens(of: call.argumentsText).enumerated() {
                    var split = turn
                    split.toolCalls[index].arguments = splitting(call.arguments, at: token.middle)
                    add(
                        "\(name):split-in-token-\(number + 1)",
                        "tool call \(index + 1)'s arguments split inside \(token.text)",
                        rendered(split, TurnScript(split)))
                }
            }
        }
        if blocks.count > 1 {
            var interleaved = script
            interleaved.parts = TurnPart.interleaved(turn)
            add(
                "parts:interleaved", "the deltas of the text and each tool call taken in turn",
                rendered(turn, interleaved))
        }
        var unfinished = script
        unfinished.finished = false
        let finishless =
            format == .gemini
            ? rendered(turn, unfinished) : good.filter { $0.role != .finish }
        add("finish:missing", "the stream does not say how the answer finished", finishless)
        if good.contains(where: { $0.role == .end }) {
            add("end:missing", "the event that ends the stream left out", good.filter { $0.role != .end })
        }
        for finish in AssistantTurn.Finish.allCases where finish != turn.finish {
            var other = turn
            other.finish = finish
            add(
                "finish:\(finish.rawValue)", "the answer says it finished as \(finish.rawValue)",
                rendered(other, script))
        }
        var unused = turn
        unused.usage = AssistantTurn.Usage(input: 0, output: 0)
        add("usage:zero", "the usage counts no tokens", rendered(unused, script))
        var newKind = script
        newKind.newKind = true
        add(
            "events:new-kind", "an event of a kind the format does not have yet, after the first",
            rendered(turn, newKind))
        for sent in 1..<max(good.count, 1) {
            add(
                "event[\(sent)]:then-error",
                "the provider's error event after event \(sent), then the stream ends",
                Array(good.prefix(sent)) + [TurnEvent(format.errorEvent(after: sent), .other)])
        }
        return mutants
    }

    /// A Responses event with `sequence_number` `position` (each one's data has it, written by `OrderedJSON`).
    private static func numbered(_ event: ServerSentEvent, _ position: Int) -> ServerSentEvent {
        let key = "\"sequence_number\":"
        let lines = event.lines.map { line in
            guard line.hasPrefix("data: "), let start = line.firstRange(of: key) else { return line }
            let digits = line[start.upperBound...].prefix { $0.isNumber }
            return line[..<start.upperBound] + String(position) + line[digits.endIndex...]
        }
        return ServerSentEvent(lines: lines, delayMs: event.delayMs)
    }

    private static func describe(_ block: TurnBlock) -> String {
        switch block {
        case .text: "the text"
        case .call(let index): "tool call \(index + 1)"
        }
    }

    /// The JSON tokens of `text` longer than one character (strings, numbers, `true`, `false`, `null`): where each
    /// is and the character offset of its middle.
    static func tokens(of text: String) -> [(text: String, middle: Int)] {
        let characters = Array(text)
        var tokens: [(text: String, middle: Int)] = []
        var index = 0
        while index < characters.count {
            let start = index
            if characters[index] == "\"" {
                index += 1
                while index < characters.count, characters[index] != "\"" {
                    index += characters[index] == "\\" ? 2 : 1
                }
                index = min(index + 1, characters.count)
            } else if characters[index].isLetter || characters[index].isNumber || characters[index] == "-" {
                while index < characters.count,
                    characters[index].isLetter || characters[index].isNumber || "+-.".contains(characters[index])
                {
                    index += 1
                }
            } else {
                index += 1
                continue
            }
            if index - start > 1 {
                tokens.append((String(characters[start..<index]), start + (index - start) / 2))
            }
        }
        return tokens
    }

    /// `pieces` with the one that holds character `offset` split there (the second part with no pause); as they
    /// were when a piece already ends there.
    static func splitting(_ pieces: [AssistantTurn.Piece], at offset: Int) -> [AssistantTurn.Piece] {
        var start = 0
        var result: [AssistantTurn.Piece] = []
        for piece in pieces {
            let count = piece.text.count
            if offset > start, offset < start + count {
                let characters = Array(piece.text)
                let point = offset - start
                result.append(AssistantTurn.Piece(String(characters[..<point]), delayMs: piece.delayMs))
                result.append(AssistantTurn.Piece(String(characters[point...])))
            } else {
                result.append(piece)
            }
            start += count
        }
        return result
    }
}

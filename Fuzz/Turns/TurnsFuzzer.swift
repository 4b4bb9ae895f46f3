// libFuzzer target for model API turns (Sources/Stubs/StubCore/Turns): a turn made from the input (text pieces,
// tool calls whose JSON arguments are cut anywhere, inside a token or an escape; each finish; usage; pauses) is
// rendered in one of the four formats (the input chooses), streamed and whole, and must read back (TurnReader) as the turn the format
// carries (TurnFormat.carried). Its grammar's mutants are listed with unique IDs, and those that keep to the grammar
// read back as they claim: a split inside a token and interleaved deltas as the same turn, a finish as that finish,
// usage as zero, arguments cut after N pieces as those N.
//
// Seeds: Fuzz/seeds/turns; dictionary Fuzz/stub.dict.

import StubMutations

@testable import StubCore

/// Reads the input front to back; past its end every read is 0 or empty.
private struct Input {
    var bytes: ArraySlice<UInt8>

    mutating func byte() -> UInt8 { bytes.popFirst() ?? 0 }

    mutating func text() -> String {
        let count = Int(byte() % 12)
        let taken = bytes.prefix(count)
        bytes = bytes.dropFirst(count)
        return String(decoding: taken, as: UTF8.self)
    }

    /// A JSON value a few levels deep.
    mutating func json(depth: Int = 0) -> OrderedJSON {
        switch byte() % (depth > 2 ? 4 : 6) {
        case 0: return .null
        case 1: return .bool(byte() & 1 == 1)
        case 2: return byte() & 1 == 1 ? .int(Int(Int8(bitPattern: byte())) * 1_000) : .double(Double(byte()) / 8)
        case 3: return .string(text())
        case 4: return .array((0..<Int(byte() % 3)).map { _ in json(depth: depth + 1) })
        default: return object(depth: depth + 1)
        }
    }

    mutating func object(depth: Int = 0) -> OrderedJSON {
        var fields: [(String, OrderedJSON)] = []
        for _ in 0..<Int(byte() % 4) {
            let key = text()
            if !fields.contains(where: { $0.0 == key }) { fields.append((key, json(depth: depth))) }
        }
        return .object(fields)
    }

    /// `text` cut into pieces at points the input chooses, each with a pause.
    mutating func pieces(of text: String) -> [AssistantTurn.Piece] {
        let characters = Array(text)
        var cuts = Set<Int>()
        for _ in 0..<Int(byte() % 5) where !characters.isEmpty { cuts.insert(Int(byte()) % characters.count) }
        var pieces: [AssistantTurn.Piece] = []
        var start = 0
        for cut in cuts.sorted() + [characters.count] where cut > start || pieces.isEmpty {
            pieces.append(AssistantTurn.Piece(String(characters[start..<cut]), delayMs: Int(byte() % 4) * 10))
            start = cut
        }
        return pieces
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTurns(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = Input(bytes: ArraySlice(UnsafeBufferPointer(start: data, count: size)))
    let head = input.byte()
    let text = (0..<Int(head % 4)).map { _ in AssistantTurn.Piece(input.text(), delayMs: Int(input.byte() % 4) * 10) }
    let calls = (0..<Int(head / 4 % 3)).map { index in
        AssistantTurn.ToolCall(id: "call_\(index)" + input.text(), name: "tool" + input.text(), arguments: [])
    }
    guard !text.isEmpty || !calls.isEmpty else { return 0 }
    var turn = AssistantTurn(
        id: input.text(), model: "m" + input.text(), created: Int(input.byte()) * 1_000, text: text,
        toolCalls: calls, finish: AssistantTurn.Finish.allCases[Int(head / 16 % 4)],
        usage: .init(input: Int(input.byte()), output: Int(input.byte())))
    for index in turn.toolCalls.indices {
        turn.toolCalls[index].arguments = input.pieces(of: input.object().text)
    }
    // One format an input, and its grammar's mutants for half the inputs: all four formats, each listing its
    // mutants (which renders the turn some thirty times), made the target too slow to search.
    let choice = Int(input.byte())
    for format in [TurnFormat.allCases[choice % 4]] {
        let streamed = format.carried(turn, streamed: true)
        guard let read = try? TurnReader.read(format.events(turn), as: format) else {
            preconditionFailure("\(format)'s stream of a turn does not read back")
        }
        precondition(read == streamed, "\(format)'s stream reads back as another turn")
        let whole = try? TurnReader.read(whole: Array(format.body(turn).text.utf8), as: format)
        precondition(
            whole == format.carried(turn, streamed: false), "\(format)'s whole answer reads back as another turn")
        guard choice & 4 == 0 else { continue }
        let mutants = TurnMutations.of(turn, format, includeUsage: true)
        precondition(Set(mutants.map(\.id)).count == mutants.count, "two grammar mutants share an ID")
        let stream = MutableEventStream(format.events(turn), status: 200, headers: .init(), grammar: mutants)
        // One mutant a format, chosen by the input: reading every one made the target twenty times slower.
        for mutant in mutants.isEmpty ? [] : [mutants[Int(input.byte()) % mutants.count]] {
            guard case .stream(_, _, let blocks, _) = mutant.apply(to: stream) else {
                preconditionFailure("\(mutant.id) is not a stream")
            }
            let events = blocks.map { ServerSentEvent(lines: lines($0.pieces.flatMap(\.bytes))) }
            let id = mutant.id
            if id.hasPrefix("finish:") && id != "finish:missing" || id == "usage:zero"
                || id.contains(":split-in-token-")
                || id == "parts:interleaved" || id.contains(":cut-after-")
            {
                guard let mutated = try? TurnReader.read(events, as: format) else {
                    preconditionFailure("\(format) \(id) does not keep to the grammar")
                }
                if id.contains(":split-in-token-") || id == "parts:interleaved" {
                    precondition(
                        mutated.wholeText == read.wholeText
                            && mutated.toolCalls.map(\.argumentsText) == read.toolCalls.map(\.argumentsText)
                            && mutated.finish == read.finish, "\(format) \(id) reads as another turn")
                }
                if id == "usage:zero" { precondition(mutated.usage == .init(input: 0, output: 0)) }
            }
        }
    }
    return 0
}

/// A block's wire bytes as its lines (without the blank line that ends it).
private func lines(_ bytes: [UInt8]) -> [String] {
    String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
}

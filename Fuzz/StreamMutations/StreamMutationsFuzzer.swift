// libFuzzer target for the mutants of an event stream (Sources/Stubs/StubMutations' EventStreamMutations) and of a
// WebSocket conversation (ConversationMutations, in ConversationMutationsFuzzer.swift). An input that begins with
// "ws\n" is a conversation's script; any other is a stream's text: blocks separated by blank lines, lines by LF.
// Compiled by Fuzz/run.sh with
// Sources/Stubs/StubMutations (HTTPMessages and Locking as libraries). Properties, not only survival:
// - any stream gives mutants with unique, non-empty IDs and descriptions, the same list twice, the first and last
//   found again by `mutant(_:of:)`;
// - each listed mutant (24 of them, spread along the list) sends something else than the stream and than the others
//   (bytes, reads, pauses, ending, what a resumed request gets; a data mutant other JSON), and each alias resolves;
// - each applied (all but the 1 MB ones) is a stream or, for the three answers, a plain answer;
// - an event dropped, twice or cut after leaves one event fewer, one more, or N; a split event's pieces join into
//   the unsplit block; line-end mutants keep the bytes but for the line ends.
//
// Seeds: short streams and scripts of our own shapes, in Fuzz/seeds/stream-mutations.

import HTTPMessages

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStreamMutations(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeBufferPointer(start: data, count: min(size, 4_096))
    if input.starts(with: Array("ws\n".utf8)) {
        checkConversationMutations(of: conversation(reading: input.dropFirst(3)))
        return 0
    }
    // Lines end at CR LF, LF or CR, as a client reads them: no line holds a CR.
    let text = String(decoding: input, as: UTF8.self)
        .replacingCRLF()
    let blocks = text.split(separator: "\n\n").map { block in
        MutableEventStream.Block(lines: block.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
    }
    let stream = MutableEventStream(
        status: 200, headers: HTTPHeaders([("Content-Type", "text/event-stream")]), blocks: blocks)
    let mutants = EventStreamMutations.of(stream)
    precondition(Set(mutants.map(\.id)).count == mutants.count, "duplicate IDs")
    precondition(mutants.allSatisfy { !$0.id.isEmpty && !$0.description.isEmpty })
    precondition(EventStreamMutations.of(stream).map(\.id) == mutants.map(\.id), "a second list differs")
    let events = stream.eventBlocks.count
    guard case .stream(_, _, let plain, _) = Mutation.sent(stream) else { preconditionFailure("not a stream") }
    let plainBytes = plain.flatMap(\.pieces).flatMap(\.bytes)
    for mutant in [mutants.first, mutants.last].compactMap({ $0 }) {
        precondition(
            EventStreamMutations.mutant(mutant.id, of: stream)?.id == mutant.id, "\(mutant.id) not found again")
    }
    // Each listed mutant sends something else than the stream and than every other listed mutant: other bytes,
    // reads, pauses or ending; a data mutant other JSON in some event. A twin's ID still resolves.
    var seen = [wire(Mutation.sent(stream)): "the stream"]
    // At most 24, spread along the list, none of the 1 MB ones: applying all would slow the run many times over.
    let small = mutants.filter { mutant in
        switch mutant.change {
        case .stream(.stream(.hugeEvent)), .stream(.data(_, _, .huge)): false
        default: true
        }
    }
    let spread = small.count <= 24 ? small : (0..<24).map { small[$0 * small.count / 24] }
    for mutant in spread {
        // A client that resumes after a broken connection gets the rest as written: part of what it serves.
        let sent = wire(mutant.apply(to: stream)) + (mutant.breaksTheConnection ? Array("resumed as written".utf8) : [])
        precondition(seen[sent] == nil, "\(mutant.id) sends what \(seen[sent] ?? "") sends")
        seen[sent] = mutant.id
        for alias in mutant.aliases {
            precondition(EventStreamMutations.mutant(alias, of: stream) != nil, "\(alias) does not resolve")
        }
        // A data mutant writes JSON compactly: it must change the JSON of some event, not only its spaces.
        if case .stream(.data) = mutant.change, case .stream(_, _, let sent, _) = mutant.apply(to: stream) {
            let before = stream.blocks.filter(\.isEvent).map { JSONNode(parsing: Array(($0.data ?? "").utf8)) }
            let after = sent.filter(\.isEvent).map { JSONNode(parsing: Array(dataLines(of: $0).utf8)) }
            precondition(before != after, "\(mutant.id) changes no event's JSON")
        }
    }
    for mutant in mutants.prefix(32) where !mutant.id.contains("huge") {
        switch mutant.apply(to: stream) {
        case .answer:
            precondition(["status:204", "status:503", "body:html-error-page"].contains(mutant.id), mutant.id)
        case .stream(_, _, let sent, let ending):
            let count = sent.filter(\.isEvent).count
            let bytes = sent.flatMap(\.pieces).flatMap(\.bytes)
            let id = mutant.id
            // Told by its change, not its ID: a quoted JSON key in a data mutant's ID may hold any text.
            switch mutant.change {
            case .stream(.event(let number, let change)):
                precondition(id == "event[\(number)]:\(change.rawValue)", id)
                switch change {
                case .dropped: precondition(count == events - 1, id)
                case .twice: precondition(count == events + 1, id)
                case .swapped: precondition(count == events && bytes.count == plainBytes.count, id)
                case .end, .reset, .hang:
                    precondition(count == number, id)
                    precondition(ending == (change == .end ? .complete : change == .reset ? .reset : .hang), id)
                case .split: precondition(bytes == plainBytes && sent.flatMap(\.pieces).count == plain.count + 1, id)
                }
            case .stream(.stream(.crlf)), .stream(.stream(.cr)):
                let restored = String(decoding: bytes, as: UTF8.self).replacingCRLF()
                precondition(restored == String(decoding: plainBytes, as: UTF8.self).replacingCRLF(), id)
            default: break
            }
        }
    }
    return 0
}

/// A sent block's data lines' values joined by LF, as a client reads them.
private func dataLines(of block: MutatedEventStream.SentBlock) -> String {
    let lines = String(decoding: block.pieces.flatMap(\.bytes), as: UTF8.self).split(separator: "\n")
    return lines.filter { $0.hasPrefix("data:") }.map { line in
        let value = line.dropFirst(5)
        return String(value.hasPrefix(" ") ? value.dropFirst() : value)
    }.joined(separator: "\n")
}

/// What a client receives of `sent`: the status, each piece after its pause, and the ending; or the plain answer.
private func wire(_ sent: MutatedEventStream) -> [UInt8] {
    switch sent {
    case .answer(let answer): return Array("answer \(answer.status)\n".utf8) + answer.body
    case .stream(let status, _, let blocks, let ending):
        var wire = Array("stream \(status) \(ending)\n".utf8)
        for piece in blocks.flatMap(\.pieces) {
            wire += Array("\n\(piece.pauseMs) \(piece.bytes.count)\n".utf8) + piece.bytes
        }
        return wire
    }
}

extension String {
    /// The text with every CR LF, then every CR, read as LF.
    fileprivate func replacingCRLF() -> String {
        var result = ""
        var previousCR = false
        for scalar in unicodeScalars {
            if scalar == "\r" {
                result.append("\n")
                previousCR = true
            } else {
                if !(scalar == "\n" && previousCR) { result.unicodeScalars.append(scalar) }
                previousCR = false
            }
        }
        return result
    }
}

import HTTPMessages

/// The hostile versions of a good event stream: each event dropped, sent twice, swapped with the next, split across
/// two reads, or the stream ended cleanly, reset or left hanging after it; the stream's line ends, comments,
/// heartbeats, ids, `retry`, a 1 MB event, a pause past a client's timeout, its terminal event missing; each event
/// type's JSON data mutated as a body's values are (per type, not per event); and a 204, a 503 or an HTML page
/// instead of the stream. Made of the stream's events as written: no keep-alive comments, no resuming.
package enum EventStreamMutations {
    /// The mutants of `stream`, in a stable order: answers, the stream's, each event's, then each type's data. Each
    /// changes what the stream sends, and no two send the same (a twin is an alias of the first, `Mutation.aliases`).
    package static func of(_ stream: MutableEventStream) -> [Mutation] {
        let entry = listing(stream)
        return entry.distinct { StreamServed(stream).distinct.keep(entry.candidates) }
    }

    /// Whether `mutant` sends what `stream` sends: the same bytes in the same reads at the same times, ending the
    /// same way; for a change of an event type's data, the same JSON in every event of the type.
    static func isNoOp(_ mutant: Mutation, of stream: MutableEventStream) -> Bool {
        // A 1 MB event is a change whatever the stream (its data only grows), and costly to write out for nothing.
        if case .stream(.stream(.hugeEvent)) = mutant.change { return false }
        return isNoOpData(mutant, of: stream) || mutant.apply(to: stream) == Mutation.sent(stream)
    }

    private static func isNoOpData(_ mutant: Mutation, of stream: MutableEventStream) -> Bool {
        guard case .stream(.data(let type, let path, let change)) = mutant.change else { return false }
        return stream.blocks.allSatisfy { block in
            guard block.isEvent, block.type == type, let data = block.data,
                let document = JSONNode(parsing: Array(data.utf8))
            else { return true }
            return !document.isChanged(by: path[...], change)
        }
    }

    /// A fingerprint of what a stream sends: status, each piece and its pause, and how it ends.
    fileprivate static func fingerprint(_ served: MutatedEventStream) -> UInt64 {
        switch served {
        case .answer(let answer):
            var print = Fingerprint(tag: 11)
            print.add(UInt64(answer.status))
            print.add(Fingerprint.bytes(answer.body))
            return print.value
        case .stream(let status, _, let blocks, let ending):
            let pieces = blocks.flatMap(\.pieces).map { (pause: $0.pauseMs, print: Fingerprint.bytes($0.bytes)) }
            return fingerprint(status: status, pieces: pieces, ending: ending)
        }
    }

    /// A fingerprint of a stream from its pieces' pauses and fingerprints.
    fileprivate static func fingerprint(
        status: Int, pieces: [(pause: Int, print: UInt64)], ending: StreamEnd
    ) -> UInt64 {
        var print = Fingerprint(tag: 8)
        print.add(UInt64(status))
        for piece in pieces {
            print.add(UInt64(piece.pause))
            print.add(piece.print)
        }
        print.add(String(describing: ending))
        return print.value
    }

    /// Every mutant the lister makes of `stream`, also those that change nothing in it or send what another sends.
    private static func candidates(of stream: MutableEventStream) -> [Mutation] {
        var mutants = stream.grammar
        mutants += EventStreamChange.answers.map(EventStreamChange.answer).map { mutation($0, of: stream) }
        mutants += EventStreamChange.StreamChange.allCases.filter { applies($0, to: stream) }.map {
            mutation(.stream($0), of: stream)
        }
        let count = stream.eventBlocks.count
        for number in (1...max(count, 1)).prefix(count) {
            for change in EventStreamChange.EventChange.allCases {
                if change == .swapped && number == count { continue }
                if change == .end && number == count { continue }
                mutants.append(mutation(.event(number, change), of: stream))
            }
        }
        var types: [String] = []
        for index in stream.eventBlocks where !types.contains(stream.blocks[index].type) {
            types.append(stream.blocks[index].type)
        }
        for type in types {
            let documents = stream.blocks.filter { $0.isEvent && $0.type == type }.compactMap {
                $0.data.flatMap { JSONNode(parsing: Array($0.utf8)) }
            }
            guard let first = documents.first else { continue }
            for shape in ValueShape.collect(first) {
                let name = ValueShape.name(shape.name, under: "data(\(type))")
                for change in shape.changes(wholeDocument: true) {
                    mutants.append(
                        Mutation(
                            id: "\(name):\(change.suffix)", description: change.describe(name),
                            change: .stream(.data(type: type, path: shape.path, change))))
                }
            }
        }
        return mutants
    }

    /// The mutant of `stream` whose ID is `id` (a twin's too), or nil when it has none or it changes nothing.
    package static func mutant(_ id: String, of stream: MutableEventStream) -> Mutation? {
        let entry = listing(stream)
        guard let index = entry.index[id], !isNoOp(entry.candidates[index], of: stream) else { return nil }
        return entry.candidates[index]
    }

    /// The mutants of `stream` listed with no cache: what the first request for a mutant of a stream costs.
    package static func listed(fromScratch stream: MutableEventStream) -> [Mutation] {
        StreamServed(stream).distinct.keep(candidates(of: stream))
    }

    /// The streams listed lately: a sweep's hundreds of requests for mutants of one stream list it once.
    private static let recent = RecentListings<MutableEventStream>(capacity: 8) { stream in
        // Status, header fields and each block's pause and lines, each part after a separator byte no text has.
        var bytes = Array(String(stream.status).utf8)
        for field in stream.headers { bytes += [0] + field.name.utf8 + [1] + field.value.utf8 }
        for block in stream.blocks {
            bytes += [2] + String(block.delayMs).utf8
            for line in block.lines { bytes += [3] + line.utf8 }
        }
        for mutant in stream.grammar { bytes += [4] + mutant.id.utf8 }
        return bytes
    }

    private static func listing(_ stream: MutableEventStream) -> RecentListings<MutableEventStream>.Entry {
        recent.entry(for: stream) { candidates(of: stream) }
    }

    private static func mutation(_ change: EventStreamChange, of stream: MutableEventStream) -> Mutation {
        var description = change.describe("")
        if case .event(let number, .split) = change, let index = stream.eventBlocks.dropFirst(number - 1).first {
            let inside =
                splitPoint(of: wire(stream.blocks[index], lineEnd: [0x0A])).utf8 ? "a UTF-8 sequence" : "its data"
            description =
                "event \(number) in two reads \(EventStreamChange.splitPauseMs) ms apart, split inside \(inside)"
        }
        return Mutation(id: change.id ?? "", description: description, change: .stream(change))
    }

    /// Whether a stream-wide change means something for `stream`.
    private static func applies(_ change: EventStreamChange.StreamChange, to stream: MutableEventStream) -> Bool {
        let events = stream.eventBlocks.map { stream.blocks[$0] }
        switch change {
        case .noTerminal: return terminal(of: stream) != nil
        case .idsRepeated: return events.count > 1 && events.contains { $0.id != nil }
        case .idsEmptied: return events.contains { $0.id != nil }
        case .idlePause: return events.count > 1
        case .crlf, .cr, .comments, .heartbeats, .pingEvents, .retry, .hugeEvent: return !events.isEmpty
        }
    }

    /// The block index of the event that ends `stream`: its last, when its data is `[DONE]` or no other event has
    /// its type.
    static func terminal(of stream: MutableEventStream) -> Int? {
        guard let last = stream.eventBlocks.last, stream.eventBlocks.count > 1 else { return nil }
        let block = stream.blocks[last]
        let alone = !stream.eventBlocks.dropLast().contains { stream.blocks[$0].type == block.type }
        return block.data == "[DONE]" || alone ? last : nil
    }

    /// A block's bytes: each line, then the blank line that dispatches it.
    static func wire(_ block: MutableEventStream.Block, lineEnd: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        for line in block.lines {
            bytes += line.utf8
            bytes += lineEnd
        }
        return bytes + lineEnd
    }

    /// Where a split block's first read ends: inside its first multibyte UTF-8 sequence, else in the middle of its
    /// data line (else of the block).
    static func splitPoint(of bytes: [UInt8]) -> (offset: Int, utf8: Bool) {
        if let lead = bytes.firstIndex(where: { $0 >= 0xC0 }) { return (lead + 1, true) }
        let data = Array("data:".utf8)
        let start = bytes.indices.first { bytes[$0...].starts(with: data) } ?? 0
        let end = bytes[start...].firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) ?? bytes.count
        return (max(1, min(bytes.count - 1, (start + end) / 2)), false)
    }
}

extension Mutation {
    /// A mutant of a stream that sends `blocks` in its place: one that follows the stream's grammar, made by a lister
    /// that knows it (`MutableEventStream.grammar`).
    package static func rewriting(id: String, description: String, blocks: [MutableEventStream.Block]) -> Mutation {
        Mutation(id: id, description: description, change: .stream(.rewritten(blocks)))
    }

    /// What `stream` becomes under this mutation; the stream unchanged for a mutation that is not a stream's.
    package func apply(to stream: MutableEventStream) -> MutatedEventStream {
        guard case .stream(let change) = change else { return Self.sent(stream) }
        var stream = stream
        var lineEnd: [UInt8] = [0x0A]
        var ending = StreamEnd.complete
        var split: Int?
        let events = stream.eventBlocks
        switch change {
        case .answer(let whole):
            guard
                case .answer(let answer) = whole.apply(
                    to: MutableAnswer(status: stream.status, headers: stream.headers, body: []))
            else { return Self.sent(stream) }
            var plain = answer
            if case .status(503) = whole { plain.headers.set("Retry-After", "1") }
            return .answer(plain)
        case .event(let number, let eventChange):
            guard number >= 1, number <= events.count else { return Self.sent(stream) }
            let index = events[number - 1]
            switch eventChange {
            case .dropped: stream.blocks.remove(at: index)
            case .twice: stream.blocks.insert(stream.blocks[index], at: index + 1)
            case .swapped:
                guard number < events.count else { break }
                let next = events[number]
                (stream.blocks[index].lines, stream.blocks[next].lines) =
                    (stream.blocks[next].lines, stream.blocks[index].lines)
            case .end, .reset, .hang:
                stream.blocks = Array(stream.blocks[...index])
                ending = eventChange == .end ? .complete : eventChange == .reset ? .reset : .hang
            case .split: split = index
            }
        case .stream(let streamChange):
            switch streamChange {
            case .noTerminal:
                if let terminal = EventStreamMutations.terminal(of: stream) { stream.blocks.remove(at: terminal) }
            case .crlf: lineEnd = [0x0D, 0x0A]
            case .cr: lineEnd = [0x0D]
            case .comments:
                for index in events { stream.blocks[index].lines.insert(": this line is a comment", at: 0) }
            case .heartbeats, .pingEvents:
                let lines = streamChange == .heartbeats ? [": ping"] : ["event: ping", "data: {}"]
                for index in events.reversed() {
                    stream.blocks.insert(MutableEventStream.Block(lines: lines), at: index)
                }
            case .idsRepeated:
                let first = events.lazy.compactMap { stream.blocks[$0].id }.first ?? ""
                for index in events { stream.blocks[index] = stream.blocks[index].replacingID(with: first) }
            case .idsEmptied:
                for index in events { stream.blocks[index] = stream.blocks[index].replacingID(with: "") }
            case .retry:
                if let first = events.first { stream.blocks[first].lines.insert("retry: 1", at: 0) }
            case .hugeEvent:
                if let first = events.first { stream.blocks[first] = Self.padded(stream.blocks[first]) }
            case .idlePause:
                if events.count > 1 { stream.blocks[events[1]].delayMs += EventStreamChange.idlePauseMs }
            }
        case .rewritten(let blocks):
            stream.blocks = blocks
        case .data(let type, let path, let valueChange):
            for index in events where stream.blocks[index].type == type {
                guard let data = stream.blocks[index].data, let document = JSONNode(parsing: Array(data.utf8)) else {
                    continue
                }
                let changed = document.changing(path[...], valueChange) ?? .null
                stream.blocks[index] = stream.blocks[index].replacingData(
                    with: String(decoding: changed.serialized, as: UTF8.self))
            }
        }
        return Self.sent(stream, lineEnd: lineEnd, ending: ending, split: split)
    }

    /// `stream` on the wire: each block one piece after its pause (the block at `split` two, `splitPauseMs` apart), ending
    /// as `ending` says.
    static func sent(
        _ stream: MutableEventStream, lineEnd: [UInt8] = [0x0A], ending: StreamEnd = .complete, split: Int? = nil
    ) -> MutatedEventStream {
        let blocks = stream.blocks.enumerated().map { index, block in
            let bytes = EventStreamMutations.wire(block, lineEnd: lineEnd)
            var pieces = [BodyPiece(bytes, pauseMs: block.delayMs)]
            if index == split {
                let point = EventStreamMutations.splitPoint(of: bytes).offset
                pieces = [
                    BodyPiece(Array(bytes[..<point]), pauseMs: block.delayMs),
                    BodyPiece(Array(bytes[point...]), pauseMs: EventStreamChange.splitPauseMs),
                ]
            }
            return MutatedEventStream.SentBlock(pieces: pieces, id: block.id, isEvent: block.isEvent)
        }
        return .stream(status: stream.status, headers: stream.headers, blocks: blocks, ending: ending)
    }

    /// `block` with data over `EventStreamChange.hugeBytes`: a JSON object's with a `padding` key, else its text's
    /// with spaces before it.
    private static func padded(_ block: MutableEventStream.Block) -> MutableEventStream.Block {
        let padding = String(repeating: "x", count: EventStreamChange.hugeBytes)
        let data = block.data ?? ""
        if case .object(var fields)? = JSONNode(parsing: Array(data.utf8)) {
            fields.append((key: "padding", value: .string(padding)))
            return block.replacingData(with: String(decoding: JSONNode.object(fields).serialized, as: UTF8.self))
        }
        return block.replacingData(with: String(repeating: " ", count: EventStreamChange.hugeBytes) + data)
    }
}

/// What a stream's mutants send, for telling them apart: a data mutant by the JSON it makes of each event of its
/// type (fingerprinted from the parts it changes: a `huge` string is not written out for this), any other by what it
/// sends.
private struct StreamServed {
    let stream: MutableEventStream
    let good: UInt64
    /// Each event's JSON data and its fingerprints, by event type.
    let documents: [String: [(document: JSONNode, tree: FingerprintTree)]]
    /// Each block as it goes out: its pause and its bytes' fingerprint.
    let pieces: [(pause: Int, print: UInt64)]
    /// The index in the stream's blocks of each event.
    let events: [Int]

    init(_ stream: MutableEventStream) {
        self.stream = stream
        events = stream.eventBlocks
        pieces = stream.blocks.map {
            ($0.delayMs, Fingerprint.bytes(EventStreamMutations.wire($0, lineEnd: [0x0A])))
        }
        good = EventStreamMutations.fingerprint(status: stream.status, pieces: pieces, ending: .complete)
        var documents: [String: [(document: JSONNode, tree: FingerprintTree)]] = [:]
        for block in stream.blocks where block.isEvent {
            guard let data = block.data, let document = JSONNode(parsing: Array(data.utf8)) else { continue }
            documents[block.type, default: []].append((document, FingerprintTree(document)))
        }
        self.documents = documents
    }

    var distinct: DistinctMutants {
        DistinctMutants(fingerprint: fingerprint, good: good, same: same)
    }

    private func fingerprint(_ mutant: Mutation) -> UInt64 {
        if case .stream(.stream(.hugeEvent)) = mutant.change {
            // Its first event's data grows past 1 MB: no other mutant sends that, so it needs no writing out.
            return Fingerprint.bytes(Array(mutant.id.utf8))
        }
        if case .stream(.event(let number, let change)) = mutant.change {
            return fingerprint(event: number, change)
        }
        guard case .stream(.data(let type, let path, let change)) = mutant.change else {
            return EventStreamMutations.fingerprint(mutant.apply(to: stream))
        }
        var print = Fingerprint(tag: 9)
        var unchanged = true
        for (document, tree) in documents[type] ?? [] {
            let changed = document.fingerprint(changing: path[...], change, tree: tree) ?? FingerprintTree.scalar(.null)
            unchanged = unchanged && changed == tree.value
            print.add(changed)
        }
        return unchanged ? good : print.value
    }

    /// The fingerprint of event `number` changed, made from the blocks' as `apply(to:)` moves them.
    private func fingerprint(event number: Int, _ change: EventStreamChange.EventChange) -> UInt64 {
        var pieces = pieces
        var ending = StreamEnd.complete
        let index = events[number - 1]
        switch change {
        case .dropped: pieces.remove(at: index)
        case .twice: pieces.insert(pieces[index], at: index + 1)
        case .swapped:
            if number < events.count {
                (pieces[index].print, pieces[events[number]].print) = (
                    pieces[events[number]].print, pieces[index].print
                )
            }
        case .end, .reset, .hang:
            pieces = Array(pieces[...index])
            ending = change == .end ? .complete : change == .reset ? .reset : .hang
        case .split:
            let bytes = EventStreamMutations.wire(stream.blocks[index], lineEnd: [0x0A])
            let point = EventStreamMutations.splitPoint(of: bytes).offset
            pieces[index...index] = [
                (pieces[index].pause, Fingerprint.bytes(Array(bytes[..<point]))),
                (EventStreamChange.splitPauseMs, Fingerprint.bytes(Array(bytes[point...]))),
            ]
        }
        return EventStreamMutations.fingerprint(status: stream.status, pieces: pieces, ending: ending)
    }

    private func same(_ mutant: Mutation, _ other: Mutation?) -> Bool {
        guard let other else { return EventStreamMutations.isNoOp(mutant, of: stream) }
        // A client that resumes after one that breaks the connection gets the rest as written, after one that does
        // not the rest as mutated: the same first answer, not the same mutant.
        guard mutant.breaksTheConnection == other.breaksTheConnection else { return false }
        switch (mutant.change, other.change) {
        case (
            .stream(.data(let type, let path, let change)),
            .stream(.data(let otherType, let otherPath, let otherChange))
        ):
            return type == otherType
                && (documents[type] ?? []).allSatisfy {
                    $0.document.changing(path[...], change) == $0.document.changing(otherPath[...], otherChange)
                }
        default:
            return mutant.apply(to: stream) == other.apply(to: stream)
        }
    }
}

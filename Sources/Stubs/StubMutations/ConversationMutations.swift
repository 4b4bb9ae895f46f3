import HTTPMessages

/// The hostile versions of a good WebSocket conversation: each server message dropped, sent twice, swapped with the
/// next one of the same step, sent as binary, fragmented into continuation frames, or followed by a close of each
/// code class or a dropped connection (1006); each message's JSON mutated as a body's values are; a flood of pings
/// when the socket opens; the script's close or drop left out.
package enum ConversationMutations {
    /// The mutants of `conversation`, in a stable order: the conversation's, each message's, then each message's
    /// JSON values.
    package static func of(_ conversation: MutableConversation) -> [Mutation] {
        let entry = listing(conversation)
        return entry.distinct { ConversationServed(conversation).distinct.keep(entry.candidates) }
    }

    /// Whether `mutant` leaves `conversation` as it is; for a change of a message's JSON, the same JSON.
    static func isNoOp(_ mutant: Mutation, of conversation: MutableConversation) -> Bool {
        isNoOpJSON(mutant, of: conversation)
            || ConversationServed.wire(mutant.apply(to: conversation)) == ConversationServed.wire(conversation)
    }

    private static func isNoOpJSON(_ mutant: Mutation, of conversation: MutableConversation) -> Bool {
        guard case .conversation(.json(let number, let path, let change)) = mutant.change else { return false }
        let places = conversation.messages
        guard number >= 1, number <= places.count, case .text(let text)? = conversation.message(at: places[number - 1]),
            let document = JSONNode(parsing: Array(text.utf8))
        else { return true }
        return !document.isChanged(by: path[...], change)
    }

    /// Every mutant the lister makes of `conversation`, also those that change nothing or do what another does.
    private static func candidates(of conversation: MutableConversation) -> [Mutation] {
        var mutants = [Mutation(.pingFlood)]
        if conversation.steps.contains(where: \.endsTheSocket) { mutants.append(Mutation(.noClose)) }
        let places = conversation.messages
        for (offset, place) in places.enumerated() {
            let number = offset + 1
            var changes: [ConversationChange.MessageChange] = [.dropped, .twice]
            if offset + 1 < places.count,
                places[offset + 1].step == place.step
                    || (isOpening(conversation, place) && isOpening(conversation, places[offset + 1]))
            {
                changes.append(.swapped)
            }
            if case .text? = conversation.message(at: place) { changes.append(.asBinary) }
            changes.append(.fragmented)
            changes += ConversationChange.closeCodes.map(ConversationChange.MessageChange.thenClose) + [.thenDrop]
            mutants += changes.map { Mutation(.message(number, $0)) }
        }
        for (offset, place) in places.enumerated() {
            guard case .text(let text)? = conversation.message(at: place),
                let document = JSONNode(parsing: Array(text.utf8))
            else { continue }
            for shape in ValueShape.collect(document) {
                let name = ValueShape.name(shape.name, under: "message[\(offset + 1)]")
                for change in shape.changes(wholeDocument: true) {
                    mutants.append(
                        Mutation(
                            id: "\(name):\(change.suffix)", description: change.describe(name),
                            change: .conversation(.json(offset + 1, path: shape.path, change))))
                }
            }
        }
        return mutants
    }

    /// The mutant of `conversation` whose ID is `id` (a twin's too), or nil when it has none or it changes nothing.
    package static func mutant(_ id: String, of conversation: MutableConversation) -> Mutation? {
        let entry = listing(conversation)
        guard let index = entry.index[id], !isNoOp(entry.candidates[index], of: conversation) else { return nil }
        return entry.candidates[index]
    }

    /// The conversations listed lately: a sweep's hundreds of sockets for mutants of one script list it once.
    /// Told apart by `==` alone: spelling a script out costs more than listing it (two spellings of one character in
    /// a message share a listing).
    private static let recent = RecentListings<MutableConversation>(capacity: 8)

    private static func listing(_ conversation: MutableConversation) -> RecentListings<MutableConversation>.Entry {
        recent.entry(for: conversation) { candidates(of: conversation) }
    }

    private static func isOpening(_ conversation: MutableConversation, _ place: (step: Int, index: Int)) -> Bool {
        if case .send = conversation.steps[place.step] { return true }
        return false
    }
}

extension Mutation {
    fileprivate init(_ change: ConversationChange) {
        self.init(id: change.id, description: change.description, change: .conversation(change))
    }

    /// What `conversation` becomes under this mutation; unchanged for a mutation that is not a conversation's.
    package func apply(to conversation: MutableConversation) -> MutableConversation {
        guard case .conversation(let change) = change else { return conversation }
        var conversation = conversation
        switch change {
        case .pingFlood:
            let pings = (0..<ConversationChange.pingFloodCount).map { _ in
                MutableConversation.Step.send(.ping([]), delayMs: 0)
            }
            conversation.steps = pings + conversation.steps
        case .noClose:
            conversation.steps.removeAll(where: \.endsTheSocket)
        case .message(let number, let messageChange):
            let places = conversation.messages
            guard number >= 1, number <= places.count, let message = conversation.message(at: places[number - 1])
            else { return conversation }
            let place = places[number - 1]
            switch messageChange {
            case .dropped: conversation.replace(at: place, with: [])
            case .twice: conversation.replace(at: place, with: [message, message])
            case .swapped:
                guard number < places.count, let next = conversation.message(at: places[number]) else { break }
                conversation.replace(at: places[number], with: [message])
                conversation.replace(at: place, with: [next])
            case .asBinary:
                if case .text(let text) = message { conversation.replace(at: place, with: [.binary(Array(text.utf8))]) }
            case .fragmented:
                let whole: WebSocketMessage? =
                    switch message {
                    case .text(let text): .text(text)
                    case .binary(let bytes): .binary(bytes)
                    default: nil
                    }
                if let whole { conversation.replace(at: place, with: [.fragmented(whole, frames: 3)]) }
            case .thenClose(let code):
                conversation.replace(
                    at: place, with: [message, .close(code: code, reason: ConversationChange.reason(code))])
            case .thenDrop:
                conversation.replace(at: place, with: [message, .drop])
            }
        case .json(let number, let path, let valueChange):
            let places = conversation.messages
            guard number >= 1, number <= places.count,
                case .text(let text)? = conversation.message(at: places[number - 1]),
                let document = JSONNode(parsing: Array(text.utf8))
            else { return conversation }
            let changed = document.changing(path[...], valueChange) ?? .null
            conversation.replace(
                at: places[number - 1], with: [.text(String(decoding: changed.serialized, as: UTF8.self))])
        }
        return conversation
    }
}

/// How a WebSocket conversation is changed.
enum ConversationChange: Sendable, Equatable {
    case pingFlood
    case noClose
    /// The `N`th message the server sends (counted from 1 in script order: the opening ones, then each answer's).
    case message(Int, MessageChange)
    /// The JSON of the `N`th message changed as a body's value would be.
    case json(Int, path: [JSONStep], ValueChange)

    enum MessageChange: Sendable, Equatable {
        case dropped, twice, swapped, asBinary, fragmented
        case thenClose(UInt16)
        /// The connection dropped after it, without a close frame: what a client reports as 1006.
        case thenDrop

        var suffix: String {
            switch self {
            case .dropped: "dropped"
            case .twice: "twice"
            case .swapped: "swapped-with-next"
            case .asBinary: "as-binary"
            case .fragmented: "fragmented"
            case .thenClose(let code): "then-close-\(code)"
            case .thenDrop: "then-drop"
            }
        }
    }

    /// A close of each class: normal, going away, policy violation, server error, an application's own.
    static let closeCodes: [UInt16] = [1000, 1001, 1008, 1011, 4000]
    static let pingFloodCount = 100

    static func reason(_ code: UInt16) -> String {
        switch code {
        case 1000: "done"
        case 1001: "going away"
        case 1008: "policy violation"
        case 1011: "internal error"
        default: "application close"
        }
    }

    var id: String {
        switch self {
        case .pingFlood: "conversation:ping-flood"
        case .noClose: "conversation:no-close"
        case .message(let number, let change): "message[\(number)]:\(change.suffix)"
        case .json: ""
        }
    }

    var description: String {
        switch self {
        case .pingFlood: "\(Self.pingFloodCount) pings when the socket opens"
        case .noClose: "the script's close or drop left out: the socket stays open"
        case .message(let number, let change):
            switch change {
            case .dropped: "message \(number) left out"
            case .twice: "message \(number) sent twice"
            case .swapped: "messages \(number) and \(number + 1) in each other's place"
            case .asBinary: "message \(number) sent as binary"
            case .fragmented: "message \(number) in three frames (continuation frames) 100 ms apart"
            case .thenClose(let code): "a close \(code) (\(Self.reason(code))) after message \(number)"
            case .thenDrop: "the connection dropped after message \(number), no close frame (1006)"
            }
        case .json: ""
        }
    }
}

/// What a conversation's mutants make of it, for telling them apart: a message's JSON mutant by the JSON it makes
/// (fingerprinted from the parts it changes), any other by the conversation it makes.
private struct ConversationServed {
    let conversation: MutableConversation
    let good: UInt64
    /// Each text message's JSON and its fingerprints, by message number (from 1).
    let documents: [Int: (document: JSONNode, tree: FingerprintTree)]

    init(_ conversation: MutableConversation) {
        self.conversation = conversation
        good = Self.fingerprint(conversation)
        var documents: [Int: (document: JSONNode, tree: FingerprintTree)] = [:]
        for (offset, place) in conversation.messages.enumerated() {
            guard case .text(let text)? = conversation.message(at: place),
                let document = JSONNode(parsing: Array(text.utf8))
            else { continue }
            documents[offset + 1] = (document, FingerprintTree(document))
        }
        self.documents = documents
    }

    var distinct: DistinctMutants {
        DistinctMutants(fingerprint: fingerprint, good: good, same: same)
    }

    private func fingerprint(_ mutant: Mutation) -> UInt64 {
        guard case .conversation(.json(let number, let path, let change)) = mutant.change,
            let (document, tree) = documents[number]
        else { return Self.fingerprint(mutant.apply(to: conversation)) }
        let changed = document.fingerprint(changing: path[...], change, tree: tree) ?? FingerprintTree.scalar(.null)
        if changed == tree.value { return good }
        var print = Fingerprint(tag: 10)
        print.add(UInt64(number))
        print.add(changed)
        return print.value
    }

    /// A fingerprint of every step of `conversation`.
    static func fingerprint(_ conversation: MutableConversation) -> UInt64 {
        Fingerprint.bytes(wire(conversation))
    }

    /// Every step of `conversation` as bytes: what it sends (text as its UTF-8, byte for byte), when, and in answer
    /// to which message. Two conversations with the same bytes do the same on the wire.
    static func wire(_ conversation: MutableConversation) -> [UInt8] {
        var bytes: [UInt8] = []
        func mark(_ tag: UInt8, _ numbers: Int..., text: [UInt8]? = nil) {
            bytes.append(tag)
            for number in numbers { bytes += Array("\(number);".utf8) }
            if let text { bytes += Array("\(text.count):".utf8) + text }
        }
        func add(_ kind: WebSocketOutput.Kind) {
            switch kind {
            case .text(let value): mark(1, text: Array(value.utf8))
            case .binary(let value): mark(2, text: value)
            case .close(let code, let reason): mark(3, Int(code), text: Array(reason.utf8))
            case .drop: mark(4)
            case .ping(let value): mark(5, text: value)
            case .fragmented(.text(let value), let frames): mark(6, frames, text: Array(value.utf8))
            case .fragmented(.binary(let value), let frames): mark(7, frames, text: value)
            }
        }
        for step in conversation.steps {
            switch step {
            case .send(let kind, let delayMs):
                mark(10, delayMs)
                add(kind)
            case .reply(let matcher, let sends, let delayMs):
                mark(11, matcher, delayMs, sends.count)
                sends.forEach(add)
            case .close(let code, let reason, let afterMs): mark(12, Int(code), afterMs, text: Array(reason.utf8))
            case .drop(let afterMs): mark(13, afterMs)
            }
        }
        return bytes
    }

    private func same(_ mutant: Mutation, _ other: Mutation?) -> Bool {
        guard let other else { return ConversationMutations.isNoOp(mutant, of: conversation) }
        if case .conversation(.json(let number, let path, let change)) = mutant.change,
            case .conversation(.json(let otherNumber, let otherPath, let otherChange)) = other.change,
            let document = documents[number]?.document
        {
            return number == otherNumber
                && document.changing(path[...], change) == document.changing(otherPath[...], otherChange)
        }
        return Self.wire(mutant.apply(to: conversation)) == Self.wire(other.apply(to: conversation))
    }
}

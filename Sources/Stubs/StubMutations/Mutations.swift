/// The hostile versions of a good answer, derived from it without I/O: every JSON value removed, null, retyped,
/// emptied, huge, odd or extreme (per path, array elements collapsed to `[*]`), every array empty, of one element
/// or with its first twice, every object with a key no client knows; every XML element (per path) removed, twice,
/// its text emptied or huge; and the answer as a whole broken: empty, cut,
/// an HTML error page with status 200, another type, each status class, each transport fault, too late.
package enum Mutations {
    /// Most mutants of one answer; beyond it value mutants are chosen evenly along the document.
    package static let cap = 5_000

    /// The mutants of `answer`, in a stable order: the whole-answer ones first, then the values' in document order.
    /// Each changes the answer, and no two serve the same (a twin is an alias of the first, `Mutation.aliases`).
    /// - Parameter listedAs: for an answer rendered from a template, the template rendered as for any server
    ///   (`StubAnswer.listedAs`), called when `answer`'s body was not seen lately: the mutants are listed from it
    ///   once, for every server that renders the template.
    package static func of(_ answer: MutableAnswer, listedAs: (() -> [UInt8])? = nil) -> [Mutation] {
        var kept: [Mutation] = []
        var heads: [(served: MutatedAnswer, index: Int)] = []
        for mutant in MutantCache.shared.entry(for: answer.body, listedAs: listedAs).mutants {
            guard case .whole(let whole) = mutant.change, !whole.dependsOnTheBodyAlone else {
                kept.append(mutant)
                continue
            }
            // Status, type and faults depend on the answer's head too: told apart here, where it is known.
            let served = whole.apply(to: answer)
            if served == .answer(answer) { continue }
            if let twin = heads.first(where: { $0.served == served }) {
                kept[twin.index].aliases.append(mutant.id)
                continue
            }
            heads.append((served, kept.count))
            kept.append(mutant)
        }
        return kept
    }

    /// The mutants of `body` made afresh, without the cache: what the first request for a mutant of an answer costs
    /// (the benchmarks time it).
    package static func listed(fromScratch body: [UInt8]) -> [Mutation] {
        let document = JSONNode(parsing: body)
        return list(body: body, document, document == nil ? XMLOutline(parsing: body) : nil)
    }

    /// The mutants of `body`, parsed as `document` (nil: not JSON) or `outline` (nil: not XML), each changing the
    /// body, twins listed once.
    static func list(body: [UInt8], _ document: JSONNode?, _ outline: XMLOutline? = nil) -> [Mutation] {
        let whole = WholeChange.all.map { Mutation(id: $0.id, description: $0.description, change: .whole($0)) }
        var values: [Mutation] = []
        for shape in outline?.shapes ?? [] {
            for change in ElementChange.changes(for: shape.elements) {
                values.append(
                    Mutation(
                        id: "\(shape.path):\(change.rawValue)", description: change.describe(shape.path),
                        change: .element(path: shape.path, change)))
            }
        }
        for shape in document.map(ValueShape.collect) ?? [] {
            for change in shape.changes {
                values.append(
                    Mutation(
                        id: "\(shape.name):\(change.suffix)", description: change.describe(shape.name),
                        change: .value(path: shape.path, change)))
            }
        }
        let distinct = BodyServed(body: body, document: document, outline: outline).distinct.keep(whole + values)
        let wholeKept = distinct.prefix { if case .whole = $0.change { true } else { false } }
        values = Array(distinct.dropFirst(wholeKept.count))
        let room = cap - wholeKept.count
        if values.count > room {
            values = (0..<room).map { values[$0 * values.count / room] }
        }
        return wholeKept + values
    }

    /// The mutant of `answer` whose ID (or an alias of it) is `id`, or nil when it has none.
    package static func mutant(
        _ id: String, of answer: MutableAnswer, listedAs: (() -> [UInt8])? = nil
    ) -> Mutation? {
        let entry = MutantCache.shared.entry(for: answer.body, listedAs: listedAs)
        guard let mutant = entry.index[id].map({ entry.mutants[$0] }) else { return nil }
        if case .whole(let whole) = mutant.change, !whole.dependsOnTheBodyAlone,
            whole.apply(to: answer) == .answer(answer)
        {
            return nil
        }
        return mutant
    }
}

/// What a body's mutants serve, for telling them apart: a JSON document (compared as JSON, as a client's decoder
/// reads it: a value mutant writes the document compactly), or bytes. A whole-body change is bytes (`body:bom`,
/// `body:truncated-half` claim bytes a decoder may read past), but for the JSON it writes (`null`, `[]`, `{}`).
private struct BodyServed {
    let body: [UInt8]
    let document: JSONNode?
    let outline: XMLOutline?
    let tree: FingerprintTree?

    init(body: [UInt8], document: JSONNode?, outline: XMLOutline?) {
        (self.body, self.document, self.outline) = (body, document, outline)
        tree = document.map(FingerprintTree.init)
    }

    enum Served: Equatable {
        case json(JSONNode)
        case bytes([UInt8])
        /// A change of the answer's head too, told apart where the head is known (`Mutations.of`).
        case other(String)
    }

    var distinct: DistinctMutants {
        DistinctMutants(
            fingerprint: fingerprint, good: tree?.value ?? Fingerprint.bytes(body),
            same: { mutant, other in other.map { served(mutant) == served($0) } ?? isNoOp(mutant) })
    }

    /// Whether `mutant` serves the good answer: a value change that changes no value (told along its path alone),
    /// or a whole change that serves the body as it is.
    func isNoOp(_ mutant: Mutation) -> Bool {
        if case .value(let path, let change) = mutant.change, let document {
            return !document.isChanged(by: path[...], change)
        }
        return served(mutant) == (document.map(Served.json) ?? .bytes(body))
    }

    func served(_ mutant: Mutation) -> Served {
        switch mutant.change {
        case .value(let path, let change):
            return .json(document?.changing(path[...], change) ?? .null)
        case .element(let path, let change):
            return .bytes(change.apply(to: body, outline?.elements.filter { $0.path == path } ?? []))
        case .whole(let whole) where whole.dependsOnTheBodyAlone:
            guard case .answer(let answer) = whole.apply(to: MutableAnswer(status: 200, body: body)) else {
                return .other(mutant.id)
            }
            if document != nil, !whole.claimsBytes,
                let parsed = JSONNode(parsing: answer.body)
            {
                return .json(parsed)
            }
            return .bytes(answer.body)
        default:
            return .other(mutant.id)
        }
    }

    func fingerprint(_ mutant: Mutation) -> UInt64 {
        switch (mutant.change, document, tree) {
        case (.value(let path, let change), let document?, let tree?):
            return document.fingerprint(changing: path[...], change, tree: tree) ?? FingerprintTree.scalar(.null)
        default:
            switch served(mutant) {
            case .json(let node): return FingerprintTree(node).value
            case .bytes(let bytes): return Fingerprint.bytes(bytes)
            case .other(let id): return Fingerprint.bytes(Array(id.utf8)) ^ 0x5A5A
            }
        }
    }
}

extension Mutation {
    /// What `answer` becomes under this mutation.
    package func apply(to answer: MutableAnswer) -> MutatedAnswer {
        switch change {
        case .whole(let whole):
            return whole.apply(to: answer)
        case .value(let path, let change):
            guard let document = MutantCache.shared.entry(for: answer.body).document else { return .answer(answer) }
            var mutated = answer
            mutated.body = (document.changing(path[...], change) ?? .null).serialized
            return .answer(mutated)
        case .element(let path, let change):
            guard let outline = MutantCache.shared.entry(for: answer.body).outline else { return .answer(answer) }
            var mutated = answer
            mutated.body = change.apply(to: answer.body, outline.elements.filter { $0.path == path })
            return .answer(mutated)
        case .stream, .conversation:
            return .answer(answer)
        }
    }
}

extension JSONNode {
    /// This node with the value(s) at `path` changed; nil when the change removes this node itself.
    func changing(_ path: ArraySlice<JSONStep>, _ change: ValueChange) -> JSONNode? {
        guard let step = path.first else { return change.apply(to: self) }
        let rest = path.dropFirst()
        switch (step, self) {
        case (.key(let key), .object(let fields)):
            return .object(
                fields.compactMap { field in
                    guard field.key == key else { return field }
                    return field.value.changing(rest, change).map { (key: key, value: $0) }
                })
        case (.elements, .array(let items)):
            return .array(items.compactMap { $0.changing(rest, change) })
        default:
            return self
        }
    }
}

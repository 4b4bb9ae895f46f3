/// The hostile versions of a good answer, derived from it without I/O: every JSON value removed, null, retyped,
/// emptied, huge, odd or extreme (per path, array elements collapsed to `[*]`), every array empty, of one element
/// or with its first twice, every object with a key no client knows; every XML element (per path) removed, twice,
/// its text emptied or huge; and the answer as a whole broken: empty, cut,
/// an HTML error page with status 200, another type, each status class, each transport fault, too late.
package enum Mutations {
    /// Most mutants of one answer; beyond it value mutants are chosen evenly along the document.
    package static let cap = 5_000

    /// The mutants of `answer`, in a stable order: the whole-answer ones first, then the values' in document order.
    /// They depend on its body alone.
    package static func of(_ answer: MutableAnswer) -> [Mutation] {
        MutantCache.shared.entry(for: answer.body).mutants
    }

    /// The mutants of `body` made afresh, without the cache: what the first request for a mutant of an answer costs
    /// (the benchmarks time it).
    package static func listed(fromScratch body: [UInt8]) -> [Mutation] {
        let document = JSONNode(parsing: body)
        return list(document, document == nil ? XMLOutline(parsing: body) : nil)
    }

    /// The mutants of a body parsed as `document` (nil: not JSON) or `outline` (nil: not XML).
    static func list(_ document: JSONNode?, _ outline: XMLOutline? = nil) -> [Mutation] {
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
        let room = cap - whole.count
        if values.count > room {
            values = (0..<room).map { values[$0 * values.count / room] }
        }
        return whole + values
    }

    /// The mutant of `answer` whose ID is `id`, or nil when it has none.
    package static func mutant(_ id: String, of answer: MutableAnswer) -> Mutation? {
        let entry = MutantCache.shared.entry(for: answer.body)
        return entry.index[id].map { entry.mutants[$0] }
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

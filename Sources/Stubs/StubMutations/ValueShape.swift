/// What a document holds at one path, over every element `[*]` stands for: which JSON types, whether strings look
/// like dates or URLs, whether numbers are whole; from which follow the path's mutants.
struct ValueShape {
    var path: [JSONStep]
    /// `feed.results[*].name`; `$` for the document itself.
    var name: String
    var kinds: Set<JSONNode.Kind> = []
    /// Reached through an object's key, so it can be removed.
    var isKeyed: Bool
    var datesSeen = false
    var urlsSeen = false
    var fractionsSeen = false

    /// Every path of `document` in document order (keys in their order, an array's elements as one `[*]`, the
    /// first element's keys first), with what it holds.
    static func collect(_ document: JSONNode) -> [ValueShape] {
        var shapes: [ValueShape] = []
        var index: [String: Int] = [:]
        func visit(_ node: JSONNode, _ path: [JSONStep], _ name: String, keyed: Bool) {
            let position: Int
            if let known = index[name] {
                position = known
            } else {
                position = shapes.count
                index[name] = position
                shapes.append(ValueShape(path: path, name: name, isKeyed: keyed))
            }
            shapes[position].note(node)
            switch node {
            case .object(let fields):
                for field in fields {
                    let child = Self.name(name, key: field.key)
                    visit(field.value, path + [.key(field.key)], child, keyed: true)
                }
            case .array(let items):
                for item in items { visit(item, path + [.elements], "\(name)[*]", keyed: false) }
            default:
                break
            }
        }
        visit(document, [], "$", keyed: false)
        return shapes
    }

    /// `parent.key` for a key of letters, digits, `_` and `-`; `parent["odd key"]` (quoted as JSON) for any
    /// other, so that no two paths share a name. A top-level key that names a whole-answer change (`body`,
    /// `status`, `fault`, `delay`, `content-type`) is quoted too: `body:empty` is the empty answer, `["body"]:empty`
    /// the document's `body` emptied.
    static func name(_ parent: String, key: String) -> String {
        let plain =
            !key.isEmpty
            && !(parent == "$" && wholeChangeNames.contains(key))
            && key.unicodeScalars.allSatisfy {
                $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-"
            }
        if plain { return parent == "$" ? key : "\(parent).\(key)" }
        return "\(parent == "$" ? "" : parent)[\(JSONNode.string(key).shown)]"
    }

    /// A path's name under `head` (a WebSocket message, an event type's data): `head` for the document itself,
    /// then `head.key`, `head[*]` (not `head.$[*]`), `head["odd key"]`.
    static func name(_ name: String, under head: String) -> String {
        if name == "$" { return head }
        let rest = name.hasPrefix("$") ? name.dropFirst() : Substring(name)
        return rest.hasPrefix("[") ? head + rest : "\(head).\(rest)"
    }

    /// What whole-answer mutant IDs start with, before their colon.
    static let wholeChangeNames = Set(WholeChange.all.map { String($0.id.prefix { $0 != ":" }) })

    private mutating func note(_ node: JSONNode) {
        kinds.insert(node.kind)
        switch node {
        case .string(let text):
            if Self.looksLikeDate(text) { datesSeen = true }
            if text.hasPrefix("http://") || text.hasPrefix("https://") { urlsSeen = true }
        case .number(let text):
            if text.contains(".") || text.contains("e") || text.contains("E") { fractionsSeen = true }
        default:
            break
        }
    }

    /// `2024-05-17`, `2024-05-17T10:00:00Z`: four digits, a dash, two digits, a dash, two digits.
    private static func looksLikeDate(_ text: String) -> Bool {
        let bytes = Array(text.utf8.prefix(10))
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return false }
        return [0, 1, 2, 3, 5, 6, 8, 9].allSatisfy { bytes[$0] >= UInt8(ascii: "0") && bytes[$0] <= UInt8(ascii: "9") }
    }

    /// The changes that mean something for what this path holds, in a fixed order. A body's document itself gets
    /// none of `null`, `as-…` and `empty` (the answer's `body:` mutants are those).
    var changes: [ValueChange] { changes(wholeDocument: false) }

    /// The changes that mean something for what this path holds; with `wholeDocument`, the document itself gets
    /// `null`, `as-…` and `empty` too (an event's data, a WebSocket message: no `body:` mutant stands for them).
    func changes(wholeDocument: Bool) -> [ValueChange] {
        var changes: [ValueChange] = []
        let isRoot = path.isEmpty && !wholeDocument
        if isKeyed { changes.append(.removed) }
        if !isRoot && kinds != [.null] { changes.append(.null) }
        if !isRoot {
            for kind in JSONNode.Kind.allCases where kind != .null && !kinds.contains(kind) {
                changes.append(.retyped(kind))
            }
        }
        if kinds.contains(.string) {
            changes += [.emptied, .huge] + ValueChange.OddText.allCases.map(ValueChange.oddText)
            if datesSeen { changes.append(.dateGarbage) }
            if urlsSeen { changes += ValueChange.URLGarbage.allCases.map(ValueChange.url) }
        }
        if kinds.contains(.number) {
            changes += ValueChange.NumberExtreme.allCases.filter { $0 != .fraction || !fractionsSeen }
                .map(ValueChange.number)
        }
        if kinds.contains(.array) {
            if !isRoot && !kinds.contains(.string) { changes.append(.emptied) }
            changes += [.oneElement, .firstDuplicated]
            if !kinds.contains(.string) { changes.append(.huge) }
        }
        if kinds.contains(.object) {
            if !isRoot && !kinds.contains(.string) && !kinds.contains(.array) { changes.append(.emptied) }
            changes.append(.unknownKey)
        }
        return changes
    }
}

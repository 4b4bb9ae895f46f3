/// How one JSON value is changed; its `suffix` ends the mutation's ID (`feed.results[*].name:null`).
enum ValueChange: Sendable, Equatable {
    case removed
    case null
    case retyped(JSONNode.Kind)
    case emptied
    case huge
    case oddText(OddText)
    case number(NumberExtreme)
    case dateGarbage
    case url(URLGarbage)
    case unknownKey
    case oneElement
    case firstDuplicated

    enum OddText: String, CaseIterable, Sendable {
        case rtl, combining, emoji
        case zeroWidth = "zero-width"
        case nul

        var text: String {
            switch self {
            case .rtl: "\u{202E}مرحبا بالعالم שלום"
            case .combining: "Z\u{0351}\u{036B}\u{0343}a\u{0310}\u{0352}l\u{0346}\u{0309}g\u{0315}\u{031A}o\u{0358}"
            case .emoji: "🎵👩‍👩‍👧‍👦🏳️‍🌈🇯🇵"
            case .zeroWidth: "\u{200B}\u{200C}\u{200D}\u{2060}\u{FEFF}"
            case .nul: "before\u{0000}after"
            }
        }

        var described: String {
            switch self {
            case .rtl: "right-to-left text behind a direction override"
            case .combining: "text of stacked combining marks"
            case .emoji: "emoji sequences (a joined family, flags)"
            case .zeroWidth: "zero-width characters only"
            case .nul: "text with a NUL (U+0000) inside"
            }
        }
    }

    enum NumberExtreme: String, CaseIterable, Sendable {
        case zero
        case minusOne = "minus-one"
        case beyondDoublePrecision = "2^53+1"
        case huge = "1e308"
        case fraction

        var text: String {
            switch self {
            case .zero: "0"
            case .minusOne: "-1"
            case .beyondDoublePrecision: "9007199254740993"
            case .huge: "1e308"
            case .fraction: "0.5"
            }
        }
    }

    enum URLGarbage: String, CaseIterable, Sendable {
        case empty, spaces, relative, javascript

        var text: String {
            switch self {
            case .empty: ""
            case .spaces: "https://exa mple.com/a b"
            case .relative: "../relative/path"
            case .javascript: "javascript:alert(1)"
            }
        }
    }

    /// A placeholder per type a value is retyped to.
    static func placeholder(_ kind: JSONNode.Kind) -> JSONNode {
        switch kind {
        case .string: .string("retyped")
        case .number: .number("1")
        case .bool: .bool(true)
        case .array: .array([])
        case .object: .object([])
        case .null: .null
        }
    }

    var suffix: String {
        switch self {
        case .removed: "removed"
        case .null: "null"
        case .retyped(let kind): "as-\(kind.rawValue)"
        case .emptied: "empty"
        case .huge: "huge"
        case .oddText(let text): "text-\(text.rawValue)"
        case .number(let number): number.rawValue
        case .dateGarbage: "date-garbage"
        case .url(let url): "url-\(url.rawValue)"
        case .unknownKey: "unknown-key"
        case .oneElement: "one"
        case .firstDuplicated: "first-duplicated"
        }
    }

    /// What the mutant does to the value at `path`, for its one-line description.
    func describe(_ path: String) -> String {
        switch self {
        case .removed: "\(path) removed"
        case .null: "\(path) is null"
        case .retyped(let kind): "\(path) is \(ValueChange.placeholder(kind).shown) (\(kind.rawValue))"
        case .emptied: "\(path) emptied"
        case .huge: "\(path) huge (a 100,000-character string, or 1,000 elements)"
        case .oddText(let text): "\(path) is \(text.described)"
        case .number(let number): "\(path) is \(number.text)"
        case .dateGarbage: "\(path) is a date no parser reads: \"0000-00-00T99:99:99Z\""
        case .url(let url): "\(path) is a broken URL: \"\(url.text)\""
        case .unknownKey: "\(path) has a key no client knows"
        case .oneElement: "\(path) keeps only its first element"
        case .firstDuplicated: "\(path) has its first element twice"
        }
    }

    /// The changed value, or nil to remove it.
    func apply(to node: JSONNode) -> JSONNode? {
        switch self {
        case .removed: return nil
        case .null: return .null
        case .retyped(let kind): return ValueChange.placeholder(kind)
        case .emptied:
            switch node {
            case .string: return .string("")
            case .array: return .array([])
            case .object: return .object([])
            default: return node
            }
        case .huge:
            switch node {
            case .string: return .string(String(repeating: "x", count: 100_000))
            case .array(let items) where !items.isEmpty:
                return .array((0..<1_000).map { items[$0 % items.count] })
            default: return node
            }
        case .oddText(let text): return node.kind == .string ? .string(text.text) : node
        case .number(let number): return node.kind == .number ? .number(number.text) : node
        case .dateGarbage: return node.kind == .string ? .string("0000-00-00T99:99:99Z") : node
        case .url(let url): return node.kind == .string ? .string(url.text) : node
        case .unknownKey:
            guard case .object(var fields) = node else { return node }
            fields.append((key: "x-unexpected-key", value: .string("unexpected")))
            return .object(fields)
        case .oneElement:
            guard case .array(let items) = node else { return node }
            return .array(Array(items.prefix(1)))
        case .firstDuplicated:
            guard case .array(let items) = node, let first = items.first else { return node }
            return .array([first] + items)
        }
    }
}

extension JSONNode {
    /// A short rendering for descriptions.
    var shown: String { String(decoding: serialized, as: UTF8.self) }
}

import JSONModel

/// A parsed YAML node, before aliases, merges and the core schema are applied.
indirect enum YAMLNode {
    /// A scalar's text; `plain` scalars are resolved by the core schema, others are strings unless tagged.
    case scalar(String, plain: Bool, tag: String?, at: YAMLPosition)
    case sequence([YAMLNode], at: YAMLPosition)
    case mapping([(key: YAMLNode, value: YAMLNode)], at: YAMLPosition)
    /// `*name`, with the node its anchor named (aliases refer only to anchors defined before them).
    case alias(String, YAMLNode, at: YAMLPosition)

    var position: YAMLPosition {
        switch self {
        case .scalar(_, _, _, let at), .sequence(_, let at), .mapping(_, let at), .alias(_, _, let at): at
        }
    }
}

/// A line and column, 1-based, counted in characters.
struct YAMLPosition: Equatable {
    var line: Int
    var column: Int
}

/// Turns nodes into values: aliases expanded (within a budget, against billion laughs), merge keys applied,
/// duplicate keys refused, plain scalars resolved by the core schema.
struct YAMLConverter {
    /// Values still allowed to be produced; aliases can multiply a small document into a huge value.
    var budget: Int

    mutating func value(of node: YAMLNode) throws(YAMLError) -> JSONValue {
        budget -= 1
        guard budget >= 0 else {
            throw Self.error(
                node.position, "aliases expand to too many values (more than the input's size allows)")
        }
        switch node {
        case .scalar(let text, let plain, let tag, let at):
            return try Self.resolve(text, plain: plain, tag: tag, at: at)
        case .sequence(let items, _):
            var values: [JSONValue] = []
            values.reserveCapacity(items.count)
            for item in items { values.append(try value(of: item)) }
            return .array(values)
        case .alias(_, let target, _):
            return try value(of: target)
        case .mapping(let pairs, _):
            var object: [String: JSONValue] = [:]
            var merged: [String: JSONValue] = [:]
            for (key, value) in pairs {
                if case .scalar("<<", true, nil, _) = key {
                    try merge(value, into: &merged)
                    continue
                }
                let name = try Self.keyText(key)
                guard object[name] == nil else {
                    throw Self.error(key.position, "duplicate key \(name.debugDescription)")
                }
                object[name] = try self.value(of: value)
            }
            for (name, value) in merged where object[name] == nil { object[name] = value }
            return .object(object)
        }
    }

    /// `<<: *base` or `<<: [*a, *b]`: the mappings' keys, earlier ones first, never over the mapping's own.
    private mutating func merge(_ node: YAMLNode, into merged: inout [String: JSONValue]) throws(YAMLError) {
        let sources: [YAMLNode]
        if case .sequence(let items, _) = Self.target(of: node) { sources = items } else { sources = [node] }
        for source in sources {
            guard case .object(let fields) = try value(of: source) else {
                throw Self.error(source.position, "a merge key (<<) takes a mapping or a sequence of mappings")
            }
            for (name, value) in fields where merged[name] == nil { merged[name] = value }
        }
    }

    private static func target(of node: YAMLNode) -> YAMLNode {
        if case .alias(_, let aliased, _) = node { return target(of: aliased) }
        return node
    }

    /// A key as the object's string: a scalar's text as written (a number key `1` is `"1"`).
    private static func keyText(_ node: YAMLNode) throws(YAMLError) -> String {
        switch target(of: node) {
        case .scalar(let text, let plain, _, _):
            if plain, text.isEmpty { return "" }
            return text
        default:
            throw error(node.position, "a key must be a scalar; collections as keys are not supported")
        }
    }

    /// The core schema: null, booleans, integers (decimal, `0o` octal, `0x` hex) and floats (with `.inf`, `.nan`)
    /// for plain scalars; everything else a string. A `!!` tag asks for its type.
    static func resolve(_ text: String, plain: Bool, tag: String?, at: YAMLPosition) throws(YAMLError) -> JSONValue {
        switch tag {
        case nil:
            return plain ? coreValue(text) : .string(text)
        case "!", "tag:yaml.org,2002:str":
            return .string(text)
        case "tag:yaml.org,2002:null":
            guard case .null = coreValue(text) else { throw error(at, "\(text.debugDescription) is not a null") }
            return .null
        case "tag:yaml.org,2002:bool":
            guard case .bool(let value) = coreValue(text) else {
                throw error(at, "\(text.debugDescription) is not a boolean")
            }
            return .bool(value)
        case "tag:yaml.org,2002:int", "tag:yaml.org,2002:float":
            guard case .number(let value) = coreValue(text) else {
                throw error(at, "\(text.debugDescription) is not a number")
            }
            if tag == "tag:yaml.org,2002:int", value != value.rounded(.towardZero) {
                throw error(at, "\(text.debugDescription) is not an integer")
            }
            return .number(value)
        default:
            throw error(
                at, "the tag \(tag!) is not supported (only the core schema's !!str, !!int, !!float, !!bool, !!null)")
        }
    }

    static func coreValue(_ text: String) -> JSONValue {
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .number(.infinity)
        case "-.inf", "-.Inf", "-.INF": return .number(-.infinity)
        case ".nan", ".NaN", ".NAN": return .number(.nan)
        default: break
        }
        let bytes = Array(text.utf8)
        if bytes.count > 2, bytes[0] == 0x30, bytes[1] == 0x6F, bytes[2...].allSatisfy({ $0 >= 0x30 && $0 <= 0x37 }) {
            return UInt64(text.dropFirst(2), radix: 8).map { .number(Double($0)) } ?? .string(text)
        }
        if bytes.count > 2, bytes[0] == 0x30, bytes[1] == 0x78, bytes[2...].allSatisfy(\.isHexDigitByte) {
            return UInt64(text.dropFirst(2), radix: 16).map { .number(Double($0)) } ?? .string(text)
        }
        if isCoreNumber(bytes), let value = Double(text) { return .number(value) }
        return .string(text)
    }

    /// `[-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?`: the core schema's ints and floats.
    private static func isCoreNumber(_ bytes: [UInt8]) -> Bool {
        var index = 0
        func digits() -> Int {
            let start = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
            return index - start
        }
        if index < bytes.count, bytes[index] == 0x2B || bytes[index] == 0x2D { index += 1 }
        var mantissa = digits()
        if index < bytes.count, bytes[index] == 0x2E {
            index += 1
            mantissa += digits()
        }
        guard mantissa > 0 else { return false }
        if index < bytes.count, bytes[index] | 0x20 == 0x65 {
            index += 1
            if index < bytes.count, bytes[index] == 0x2B || bytes[index] == 0x2D { index += 1 }
            guard digits() > 0 else { return false }
        }
        return index == bytes.count
    }

    static func error(_ at: YAMLPosition, _ message: String) -> YAMLError {
        YAMLError(line: at.line, column: at.column, message: message)
    }
}

extension UInt8 {
    fileprivate var isHexDigitByte: Bool {
        (self >= 0x30 && self <= 0x39) || (self | 0x20 >= 0x61 && self | 0x20 <= 0x66)
    }
}

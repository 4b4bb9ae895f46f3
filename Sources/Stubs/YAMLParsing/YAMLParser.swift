import JSONModel

/// A recursive-descent parser of YAML 1.2's block and flow styles into `YAMLNode`s, over the document's UTF-8
/// bytes. Structure is ASCII, so columns are counted in bytes while parsing and in characters in messages.
struct YAMLParser {
    let bytes: [UInt8]
    var index = 0
    /// Where each line starts, for positions.
    private let lineStarts: [Int]
    private var anchors: [String: YAMLNode] = [:]
    private var depth = 0
    /// Inside a flow collection that a block node holds, the column its lines must reach.
    var flowMinColumn = 0

    /// Where a block node begins: on a line of its own, after a mapping key on the key's line (where no block
    /// collection may start), or after a sequence entry's `- ` (where a compact collection may).
    enum Start {
        case ownLine
        case afterKey
        case afterDash
    }

    init(_ input: [UInt8]) throws(YAMLError) {
        var bytes = input
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        // Line breaks are LF from here on: CRLF and CR read as LF.
        if bytes.contains(0x0D) {
            var normalized: [UInt8] = []
            normalized.reserveCapacity(bytes.count)
            var previous: UInt8 = 0
            for byte in bytes {
                if byte == 0x0A, previous == 0x0D {
                } else {
                    normalized.append(byte == 0x0D ? 0x0A : byte)
                }
                previous = byte
            }
            bytes = normalized
        }
        self.bytes = bytes
        var starts = [0]
        for (offset, byte) in bytes.enumerated() where byte == 0x0A { starts.append(offset + 1) }
        lineStarts = starts
        if let bad = Self.firstInvalidUTF8(bytes) {
            index = bad
            throw error("bytes that are not UTF-8")
        }
        // YAML's printable characters exclude the C0 controls but tab and line breaks, and DEL.
        if let control = bytes.firstIndex(where: { ($0 < 0x20 && $0 != 0x09 && $0 != 0x0A) || $0 == 0x7F }) {
            index = control
            throw error("a control character (\(bytes[control])) that YAML does not allow")
        }
    }

    // MARK: Stream and documents

    mutating func parseStream() throws(YAMLError) -> [YAMLNode] {
        var documents: [YAMLNode] = []
        while true {
            try skipSeparation(flow: false, tabsBeforeContent: true)
            var explicit = false
            var sawVersion = false
            while index < bytes.count, bytes[index] == 0x25, column == 0 {  // %
                let line = restOfLine()
                if line.hasPrefix("%TAG") { throw error("%TAG directives are not supported") }
                if line.hasPrefix("%YAML") {
                    let words = line.split(separator: "#", maxSplits: 1)[0].split(whereSeparator: {
                        $0 == " " || $0 == "\t"
                    })
                    let comment =
                        line.firstIndex(of: "#").map {
                            line[line.index(before: $0)] == " " || line[line.index(before: $0)] == "\t"
                        } ?? true
                    guard words.count == 2, comment else { throw error("a %YAML directive is %YAML and a version") }
                    guard !sawVersion else { throw error("a second %YAML directive for one document") }
                    sawVersion = true
                }
                skipToLineEnd()
                try skipSeparation(flow: false)
                explicit = true
            }
            guard index < bytes.count else {
                if explicit { throw error("a directive must be followed by a document (---)") }
                break
            }
            if explicit, !atMarker("---") { throw error("a directive must be followed by a document (---)") }
            if atMarker("---") {
                index += 3
                explicit = true
            } else if atMarker("...") {
                index += 3
                try expectLineEnd()
                continue
            }
            let node: YAMLNode
            let here = position
            let crossed = try skipSeparation(flow: false, tabsBeforeContent: true)
            if lineIndentHasTab(), bytes.count > index,
                (bytes[index] == 0x2D && isBlankOrEnd(at: index + 1)) || bytes[index] == 0x3F || isKeyAhead()
            {
                throw error("a tab in indentation; YAML indents with spaces")
            }
            if index >= bytes.count || atMarker("---") || atMarker("...") {
                node = .scalar("", plain: true, tag: nil, at: here)
                if !explicit { break }
            } else {
                // On the --- line itself no block collection may start.
                node = try parseBlockNode(parent: -1, start: explicit && !crossed ? .afterKey : .ownLine)
            }
            documents.append(node)
            try skipSeparation(flow: false)
            if atMarker("...") {
                index += 3
                try expectLineEnd()
            } else if index < bytes.count, !atMarker("---") {
                throw error("expected the end of the document, a new document (---) or less indentation")
            }
            anchors = [:]
        }
        return documents
    }

    // MARK: Block nodes

    /// The node at the current position, which belongs to a parent indented at `parent` (-1 at the top).
    /// - Parameter inMapping: whether it is a mapping's value, which may be a sequence at the key's indentation.
    mutating func parseBlockNode(parent: Int, start: Start, inMapping: Bool = false) throws(YAMLError) -> YAMLNode {
        depth += 1
        defer { depth -= 1 }
        guard depth <= YAMLReader.maxDepth else { throw error("collections nest deeper than \(YAMLReader.maxDepth)") }
        var start = start
        let propertiesAt = position
        var propertiesColumn = column
        var (anchor, tag) = try parseProperties()
        while anchor != nil || tag != nil {
            guard try skipSeparation(flow: false) else {
                if index < bytes.count, bytes[index] == 0x2A {
                    throw error("an alias cannot have properties (an anchor or a tag)")
                }
                if index < bytes.count, bytes[index] == 0x2D, isBlankOrEnd(at: index + 1) {
                    throw error("a block sequence cannot start on the line of its properties")
                }
                if isKeyAhead() {
                    // `&a key: value`: the properties are the key's, and the mapping starts where they do.
                    guard start != .afterKey else { throw error("a mapping cannot start on the line of its key") }
                    return try parseBlockMapping(indent: propertiesColumn, keyProperties: (anchor, tag))
                }
                break
            }
            // Properties on a line of their own belong to the node below, which starts its own lines.
            start = .ownLine
            if inMapping, index < bytes.count, column == parent, bytes[index] == 0x2D, isBlankOrEnd(at: index + 1) {
                return try register(anchor, parseBlockSequence(indent: column))
            }
            if index >= bytes.count || column <= parent || atMarker("---") || atMarker("...") {
                return try register(anchor, .scalar("", plain: true, tag: tag, at: propertiesAt))
            }
            guard bytes[index] == 0x26 || bytes[index] == 0x21 else { break }
            // More properties: the node's own (`&a` then `!!str` below it), or a key's (`&k key: value`).
            let moreColumn = column
            let moreAt = index
            let more = try parseProperties()
            if isKeyAhead() {
                return try register(anchor, parseBlockMapping(indent: moreColumn, keyProperties: more))
            }
            if (more.anchor != nil && anchor != nil) || (more.tag != nil && tag != nil) {
                index = moreAt
                throw error("a node has at most one anchor and one tag")
            }
            anchor = anchor ?? more.anchor
            tag = tag ?? more.tag
            propertiesColumn = moreColumn
        }
        let node = try parseBlockContent(parent: parent, start: start)
        if tag != nil, case .scalar(let text, let plain, nil, let at) = node {
            return try register(anchor, .scalar(text, plain: plain, tag: tag, at: at))
        }
        return try register(anchor, node)
    }

    private mutating func parseBlockContent(parent: Int, start: Start) throws(YAMLError) -> YAMLNode {
        guard index < bytes.count else { return .scalar("", plain: true, tag: nil, at: position) }
        let byte = bytes[index]
        if byte == 0x2D, isBlankOrEnd(at: index + 1) {  // "- "
            guard start != .afterKey else { throw error("a sequence cannot start on the line of its key") }
            return try parseBlockSequence(indent: column)
        }
        if byte == 0x3F, isBlankOrEnd(at: index + 1) {  // "? "
            throw error("explicit keys (? key) are not supported")
        }
        if byte == 0x7C || byte == 0x3E {  // | >
            return try parseBlockScalar(parent: parent)
        }
        if isKeyAhead() {
            guard start != .afterKey else { throw error("a mapping cannot start on the line of its key") }
            return try parseBlockMapping(indent: column, keyProperties: (nil, nil))
        }
        if byte == 0x5B || byte == 0x7B {  // [ {
            flowMinColumn = parent + 1
            let node = try parseFlowCollection()
            let save = index
            skipInlineSpaces()
            if index < bytes.count, bytes[index] == 0x3A { throw error("collections as keys are not supported") }
            index = save
            return node
        }
        if byte == 0x2A { return try parseAlias() }  // *
        if byte == 0x22 || byte == 0x27 { return try parseQuoted(parent: parent) }
        return try parsePlain(flow: false, parent: parent)
    }

    /// Whether the current line holds `key:` from here: a plain, quoted or alias key on this line followed by `:`
    /// and a space, a line break or the end.
    private mutating func isKeyAhead() -> Bool {
        let save = index
        defer { index = save }
        guard index < bytes.count else { return false }
        switch bytes[index] {
        case 0x22, 0x27:
            let quote = bytes[index]
            index += 1
            while index < bytes.count, bytes[index] != 0x0A {
                if bytes[index] == 0x5C, quote == 0x22 {
                    index += 2
                    continue
                }
                if bytes[index] == quote {
                    if quote == 0x27, index + 1 < bytes.count, bytes[index + 1] == 0x27 {
                        index += 2
                        continue
                    }
                    index += 1
                    skipInlineSpaces()
                    return index < bytes.count && bytes[index] == 0x3A && isBlankOrEnd(at: index + 1)
                }
                index += 1
            }
            return false
        case 0x2A:
            while index < bytes.count, !isBlankOrEnd(at: index) { index += 1 }
            skipInlineSpaces()
            return index < bytes.count && bytes[index] == 0x3A && isBlankOrEnd(at: index + 1)
        case 0x5B, 0x7B, 0x7C, 0x3E, 0x23, 0x26, 0x21, 0x25, 0x40, 0x60:
            return false
        default:
            guard plainStarts(flow: false) else { return false }
            while index < bytes.count, bytes[index] != 0x0A {
                if bytes[index] == 0x3A, isBlankOrEnd(at: index + 1) { return true }
                if bytes[index] == 0x23, index > 0, isBlank(bytes[index - 1]) { return false }
                index += 1
            }
            return false
        }
    }

    private mutating func parseBlockMapping(indent: Int, keyProperties: (String?, String?)) throws(YAMLError)
        -> YAMLNode
    {
        let at = position
        var pairs: [(key: YAMLNode, value: YAMLNode)] = []
        var properties = keyProperties
        while true {
            if properties == (nil, nil) { properties = try parseProperties() }
            if properties != (nil, nil) {
                skipInlineSpaces()
                if index < bytes.count, bytes[index] == 0x2A {
                    throw error("an alias cannot have properties (an anchor or a tag)")
                }
            }
            guard isKeyAhead() else {
                if index < bytes.count, bytes[index] == 0x3F, isBlankOrEnd(at: index + 1) {
                    throw error("explicit keys (? key) are not supported")
                }
                throw error("expected a mapping key (key: value) at this indentation")
            }
            var key: YAMLNode
            switch bytes[index] {
            case 0x22, 0x27: key = try parseQuoted(parent: indent)
            case 0x2A: key = try parseAlias()
            default: key = try parsePlain(flow: false, parent: indent, key: true)
            }
            if properties.1 != nil, case .scalar(let text, let plain, nil, let keyAt) = key {
                key = .scalar(text, plain: plain, tag: properties.1, at: keyAt)
            }
            key = try register(properties.0, key)
            properties = (nil, nil)
            skipInlineSpaces()
            guard index < bytes.count, bytes[index] == 0x3A else { throw error("expected : after the key") }
            index += 1
            let value = try parseMappingValue(indent: indent)
            pairs.append((key, value))
            try skipSeparation(flow: false)
            if index >= bytes.count || atMarker("---") || atMarker("...") { break }
            if column < indent { break }
            guard column == indent else { throw error("this line is indented more than its mapping's keys") }
        }
        return .mapping(pairs, at: at)
    }

    private mutating func parseMappingValue(indent: Int) throws(YAMLError) -> YAMLNode {
        let here = position
        skipInlineSpaces()
        if index >= bytes.count || bytes[index] == 0x0A || bytes[index] == 0x23 {
            try skipSeparation(flow: false)
            if index >= bytes.count || atMarker("---") || atMarker("...") {
                return .scalar("", plain: true, tag: nil, at: here)
            }
            if column == indent, bytes[index] == 0x2D, isBlankOrEnd(at: index + 1) {
                return try parseBlockSequence(indent: indent)
            }
            guard column > indent else { return .scalar("", plain: true, tag: nil, at: here) }
            return try parseBlockNode(parent: indent, start: .ownLine, inMapping: true)
        }
        return try parseBlockNode(parent: indent, start: .afterKey, inMapping: true)
    }

    private mutating func parseBlockSequence(indent: Int) throws(YAMLError) -> YAMLNode {
        let at = position
        var items: [YAMLNode] = []
        while true {
            index += 1  // "-"
            let here = position
            let spacesStart = index
            skipInlineSpaces()
            if bytes[spacesStart..<index].contains(0x09), index < bytes.count,
                (bytes[index] == 0x2D && isBlankOrEnd(at: index + 1)) || isKeyAhead()
            {
                throw error("a tab before a compact collection; YAML indents with spaces")
            }
            if index >= bytes.count || bytes[index] == 0x0A || bytes[index] == 0x23 {
                try skipSeparation(flow: false)
                if index < bytes.count, column > indent, !atMarker("---"), !atMarker("...") {
                    items.append(try parseBlockNode(parent: indent, start: .ownLine))
                } else {
                    items.append(.scalar("", plain: true, tag: nil, at: here))
                }
            } else {
                items.append(try parseBlockNode(parent: indent, start: .afterDash))
            }
            try skipSeparation(flow: false)
            if index >= bytes.count || atMarker("---") || atMarker("...") { break }
            if column < indent { break }
            guard column == indent else { throw error("this line is indented more than its sequence's entries") }
            guard bytes[index] == 0x2D, isBlankOrEnd(at: index + 1) else { break }
        }
        return .sequence(items, at: at)
    }

    // MARK: Properties and aliases

    /// `&anchor` and `!tag`, in either order, each at most once.
    private mutating func parseProperties() throws(YAMLError) -> (anchor: String?, tag: String?) {
        var anchor: String?
        var tag: String?
        while index < bytes.count {
            if bytes[index] == 0x26, anchor == nil {  // &
                index += 1
                anchor = name()
                guard anchor?.isEmpty == false else { throw error("an anchor (&) needs a name") }
            } else if bytes[index] == 0x21, tag == nil {  // !
                let start = index
                while index < bytes.count, !isBlankOrEnd(at: index), !isFlowIndicator(bytes[index]) { index += 1 }
                let text = String(decoding: bytes[start..<index], as: UTF8.self)
                if text == "!" {
                    tag = "!"
                } else if text.hasPrefix("!!") {
                    tag = "tag:yaml.org,2002:" + text.dropFirst(2)
                } else if text.hasPrefix("!<tag:yaml.org,2002:"), text.hasSuffix(">") {
                    tag = String(text.dropFirst(2).dropLast())
                } else {
                    index = start
                    throw error(
                        "the tag \(text) is not supported (only the core schema's !!str, !!int, !!float, !!bool, !!null)"
                    )
                }
            } else {
                break
            }
            guard index >= bytes.count || isBlankOrEnd(at: index) || isFlowIndicator(bytes[index]) else {
                throw error("expected a space after the node's properties")
            }
            skipInlineSpaces()
        }
        return (anchor, tag)
    }

    private mutating func parseAlias() throws(YAMLError) -> YAMLNode {
        let at = position
        index += 1
        let alias = name()
        guard let target = anchors[alias] else {
            index -= alias.utf8.count + 1
            throw error("undefined alias *\(alias): its anchor &\(alias) must come before it")
        }
        return .alias(alias, target, at: at)
    }

    private mutating func name() -> String {
        let start = index
        while index < bytes.count, !isBlankOrEnd(at: index), !isFlowIndicator(bytes[index]) { index += 1 }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func register(_ anchor: String?, _ node: YAMLNode) throws(YAMLError) -> YAMLNode {
        if let anchor { anchors[anchor] = node }
        return node
    }

    // MARK: Flow collections

    private mutating func parseFlowNode() throws(YAMLError) -> YAMLNode {
        depth += 1
        defer { depth -= 1 }
        guard depth <= YAMLReader.maxDepth else { throw error("collections nest deeper than \(YAMLReader.maxDepth)") }
        let (anchor, tag) = try parseProperties()
        try skipSeparation(flow: true)
        let here = position
        var node: YAMLNode
        guard index < bytes.count else { throw error("the flow collection is not closed") }
        if anchor != nil || tag != nil, bytes[index] == 0x2A {
            throw error("an alias cannot have properties (an anchor or a tag)")
        }
        switch bytes[index] {
        case 0x5B, 0x7B: node = try parseFlowCollection()
        case 0x22, 0x27: node = try parseQuoted(parent: flowMinColumn - 1)
        case 0x2A: node = try parseAlias()
        case 0x2C, 0x5D, 0x7D:
            node = .scalar("", plain: true, tag: nil, at: here)
        case 0x3A where !plainStarts(flow: true):  // `: ` an empty key's; `:x` a plain scalar's start
            node = .scalar("", plain: true, tag: nil, at: here)
        default: node = try parsePlain(flow: true, parent: -1)
        }
        if tag != nil, case .scalar(let text, let plain, nil, let at) = node {
            node = .scalar(text, plain: plain, tag: tag, at: at)
        }
        return try register(anchor, node)
    }

    private mutating func parseFlowCollection() throws(YAMLError) -> YAMLNode {
        let at = position
        let isMapping = bytes[index] == 0x7B
        let close: UInt8 = isMapping ? 0x7D : 0x5D
        index += 1
        var items: [YAMLNode] = []
        var pairs: [(key: YAMLNode, value: YAMLNode)] = []
        while true {
            try skipSeparation(flow: true)
            guard index < bytes.count else {
                throw error("the flow collection is not closed (\(isMapping ? "}" : "]"))")
            }
            if bytes[index] == close {
                index += 1
                break
            }
            if bytes[index] == 0x3F, isBlankOrEnd(at: index + 1) {
                throw error("explicit keys (? key) are not supported")
            }
            if bytes[index] == 0x2C { throw error("an empty entry in a flow collection (two commas, or one first)") }
            let startsJSONLike =
                bytes[index] == 0x22 || bytes[index] == 0x27 || bytes[index] == 0x5B || bytes[index] == 0x7B
            let entryAt = position
            let entry = try parseFlowNode()
            let keyLine = position.line
            try skipSeparation(flow: true)
            var value: YAMLNode?
            if index < bytes.count, bytes[index] == 0x3A, !isMapping, position.line != keyLine {
                throw error("an implicit key and its : must be on one line")
            }
            if index < bytes.count, bytes[index] == 0x3A,
                startsJSONLike || isBlankOrEnd(at: index + 1) || isFlowIndicator(bytes[index + 1])
            {
                index += 1
                try skipSeparation(flow: true)
                if index < bytes.count, bytes[index] == 0x2C || bytes[index] == close {
                    value = .scalar("", plain: true, tag: nil, at: position)
                } else {
                    value = try parseFlowNode()
                }
            }
            if isMapping {
                pairs.append((entry, value ?? .scalar("", plain: true, tag: nil, at: position)))
            } else if let value {
                items.append(.mapping([(entry, value)], at: entryAt))
            } else {
                items.append(entry)
            }
            try skipSeparation(flow: true)
            guard index < bytes.count else { throw error("the flow collection is not closed") }
            if bytes[index] == 0x2C {
                index += 1
            } else if bytes[index] != close {
                throw error("expected , or \(isMapping ? "}" : "]") in the flow collection")
            }
        }
        return isMapping ? .mapping(pairs, at: at) : .sequence(items, at: at)
    }

    // MARK: Positions and whitespace

    var column: Int {
        index - lineStart(of: index)
    }

    /// The line and column of `index`. Columns count characters from the line's start; the count is carried
    /// forward from the last position asked for on the same line, so a document on one long line (minified JSON)
    /// costs linear time, not quadratic.
    var position: YAMLPosition {
        mutating get {
            let line = lineIndex(of: index)
            let end = min(index, bytes.count)
            var (from, characters) = (lineStarts[line], 0)
            if let last = lastColumn, last.line == line, last.offset <= end {
                (from, characters) = (last.offset, last.characters)
            }
            characters += bytes[from..<end].reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
            lastColumn = (line, end, characters)
            return YAMLPosition(line: line + 1, column: characters + 1)
        }
    }

    /// The last column counted by `position`: its line, byte offset and characters before it on that line.
    private var lastColumn: (line: Int, offset: Int, characters: Int)?

    private func lineIndex(of offset: Int) -> Int {
        var (low, high) = (0, lineStarts.count - 1)
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return low
    }

    private func lineStart(of offset: Int) -> Int {
        lineStarts[lineIndex(of: offset)]
    }

    mutating func error(_ message: String) -> YAMLError {
        YAMLConverter.error(position, message)
    }

    func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    func isBlankOrEnd(at offset: Int) -> Bool {
        offset >= bytes.count || bytes[offset] == 0x20 || bytes[offset] == 0x09 || bytes[offset] == 0x0A
    }

    func isFlowIndicator(_ byte: UInt8) -> Bool {
        byte == 0x2C || byte == 0x5B || byte == 0x5D || byte == 0x7B || byte == 0x7D
    }

    /// `---` or `...` at the start of a line, followed by a space, a line break or the end.
    func atMarker(_ marker: String) -> Bool {
        let marks = Array(marker.utf8)
        guard column == 0, index + 3 <= bytes.count, Array(bytes[index..<index + 3]) == marks else { return false }
        return isBlankOrEnd(at: index + 3)
    }

    mutating func skipInlineSpaces() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
    }

    private mutating func skipToLineEnd() {
        while index < bytes.count, bytes[index] != 0x0A { index += 1 }
    }

    private func restOfLine() -> String {
        var end = index
        while end < bytes.count, bytes[end] != 0x0A { end += 1 }
        return String(decoding: bytes[index..<end], as: UTF8.self)
    }

    /// After `...`: only spaces and a comment may follow on the line.
    private mutating func expectLineEnd() throws(YAMLError) {
        skipInlineSpaces()
        if index < bytes.count, bytes[index] == 0x23 { skipToLineEnd() }
        guard index >= bytes.count || bytes[index] == 0x0A else { throw error("nothing may follow ... on its line") }
    }

    /// Skips spaces, comments and line breaks; in block context a tab in a line's indentation before content is
    /// refused. Returns whether a line break was crossed.
    /// - Parameter tabsBeforeContent: allows tabs before a document's top node (`\t42` and tab-indented JSON read as
    ///   JSON would); the caller refuses them before a block collection.
    @discardableResult
    mutating func skipSeparation(flow: Bool, tabsBeforeContent: Bool = false) throws(YAMLError) -> Bool {
        var crossed = false
        var lineBegan = column == 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x20 {
                index += 1
            } else if byte == 0x09 {
                if lineBegan, !flow, !tabsBeforeContent {
                    // A tab in the indentation: refused unless the line holds nothing but a comment, or the tab
                    // follows indenting spaces and separates them from a scalar (` \tbar`), not a collection.
                    var look = index
                    while look < bytes.count, bytes[look] == 0x20 || bytes[look] == 0x09 { look += 1 }
                    if look < bytes.count, bytes[look] != 0x0A, bytes[look] != 0x23 {
                        let save = index
                        index = look
                        let collection =
                            ((bytes[look] == 0x2D || bytes[look] == 0x3F) && isBlankOrEnd(at: look + 1)) || isKeyAhead()
                        index = save
                        if collection || bytes[lineStart(of: index)] != 0x20 {
                            throw error("a tab in indentation; YAML indents with spaces")
                        }
                    }
                }
                index += 1
            } else if byte == 0x0A {
                index += 1
                crossed = true
                lineBegan = true
                if flow { try checkFlowLine() }
            } else if byte == 0x23, index == 0 || isBlank(bytes[index - 1]) || bytes[index - 1] == 0x0A {
                skipToLineEnd()
            } else {
                break
            }
            if byte != 0x0A, byte != 0x20, byte != 0x09 { lineBegan = false }
        }
        return crossed
    }

    /// Whether the current line's white space before this point holds a tab.
    private func lineIndentHasTab() -> Bool {
        let start = lineStart(of: index)
        return bytes[start..<index].contains(0x09)
    }

    /// At the start of a line inside a flow collection: no document marker, and content indented past the block
    /// node that holds the collection (spaces first; tabs only after them).
    private mutating func checkFlowLine() throws(YAMLError) {
        if atMarker("---") || atMarker("...") { throw error("a document marker inside a flow collection") }
        var look = index
        while look < bytes.count, bytes[look] == 0x20 { look += 1 }
        let spaces = look - index
        while look < bytes.count, bytes[look] == 0x20 || bytes[look] == 0x09 { look += 1 }
        guard look < bytes.count, bytes[look] != 0x0A, bytes[look] != 0x23 else { return }
        if spaces < flowMinColumn {
            index = look
            throw error("a flow collection's lines must be indented more than the node that holds it")
        }
    }

    /// The offset of the first byte that does not belong to a valid UTF-8 sequence, if any.
    private static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let length: Int
            if byte < 0x80 {
                index += 1
                continue
            } else if byte & 0xE0 == 0xC0, byte >= 0xC2 {
                length = 2
            } else if byte & 0xF0 == 0xE0 {
                length = 3
            } else if byte & 0xF8 == 0xF0, byte <= 0xF4 {
                length = 4
            } else {
                return index
            }
            guard index + length <= bytes.count else { return index }
            for offset in 1..<length where bytes[index + offset] & 0xC0 != 0x80 { return index }
            let second = bytes[index + 1]
            if byte == 0xE0, second < 0xA0 { return index }
            if byte == 0xED, second >= 0xA0 { return index }
            if byte == 0xF0, second < 0x90 { return index }
            if byte == 0xF4, second >= 0x90 { return index }
            index += length
        }
        return nil
    }
}

import JSONModel

extension YAMLParser {
    // MARK: Plain scalars

    /// Whether a plain scalar may start here: not with an indicator, except `-`, `?` and `:` followed by a
    /// character that is not a space (or, in flow context, not a flow indicator).
    func plainStarts(flow: Bool) -> Bool {
        guard index < bytes.count else { return false }
        let byte = bytes[index]
        switch byte {
        case 0x2D, 0x3F, 0x3A:  // - ? :
            guard index + 1 < bytes.count else { return false }
            let next = bytes[index + 1]
            return !isBlankOrEnd(at: index + 1) && !(flow && isFlowIndicator(next))
        case 0x2C, 0x5B, 0x5D, 0x7B, 0x7D, 0x23, 0x26, 0x2A, 0x21, 0x7C, 0x3E, 0x27, 0x22, 0x25, 0x40, 0x60:
            return false
        case 0x20, 0x09, 0x0A:
            return false
        default:
            return true
        }
    }

    /// A plain scalar: on one line when it is a `key`, else folded over the lines that continue it (indented more
    /// than `parent` in block context).
    mutating func parsePlain(flow: Bool, parent: Int, key: Bool = false) throws(YAMLError) -> YAMLNode {
        let at = position
        guard plainStarts(flow: flow) else {
            let shown = String(decoding: bytes[index..<min(index + 1, bytes.count)], as: UTF8.self)
            throw error("unexpected \(shown.debugDescription)")
        }
        var text = [UInt8]()
        text += plainLine(flow: flow)
        if key { return .scalar(String(decoding: text, as: UTF8.self), plain: true, tag: nil, at: at) }
        while true {
            // A continuation: the next lines, after empty ones, indented more than the parent.
            let save = index
            skipInlineSpaces()
            guard index < bytes.count, bytes[index] == 0x0A else {
                index = save
                break
            }
            var breaks = 0
            var lineStart = index
            while index < bytes.count, bytes[index] == 0x0A {
                index += 1
                breaks += 1
                lineStart = index
                skipInlineSpaces()
            }
            // Indentation is spaces; tabs may follow it (separation), so the spaces before any tab must reach past
            // the parent.
            let indentation = bytes[lineStart..<index].prefix { $0 == 0x20 }.count
            guard index < bytes.count, bytes[index] != 0x23,
                flow || indentation > parent,
                !(index == lineStart && (atMarker("---") || atMarker("..."))),
                flow
                    ? !isFlowIndicator(bytes[index]) && !(bytes[index] == 0x3A && isBlankOrEnd(at: index + 1))
                    : !(bytes[index] == 0x3A && isBlankOrEnd(at: index + 1))
            else {
                index = save
                break
            }
            let line = plainLine(flow: flow, continuation: true)
            guard !line.isEmpty else {
                index = save
                break
            }
            if breaks == 1 {
                text.append(0x20)
            } else {
                text += [UInt8](repeating: 0x0A, count: breaks - 1)
            }
            text += line
        }
        return .scalar(String(decoding: text, as: UTF8.self), plain: true, tag: nil, at: at)
    }

    /// One line's part of a plain scalar: up to `: `, ` #`, the line's end (trailing spaces dropped), and in flow
    /// context a flow indicator.
    private mutating func plainLine(flow: Bool, continuation: Bool = false) -> [UInt8] {
        let start = index
        var end = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0A { break }
            if byte == 0x3A,
                isBlankOrEnd(at: index + 1) || (flow && index + 1 < bytes.count && isFlowIndicator(bytes[index + 1]))
            {
                break
            }
            if byte == 0x23, index > start, isBlank(bytes[index - 1]) { break }
            if flow, isFlowIndicator(byte) { break }
            index += 1
            if !isBlank(byte) { end = index }
        }
        index = end
        return Array(bytes[start..<end])
    }

    // MARK: Quoted scalars

    /// A single- or double-quoted scalar, its line breaks folded (one break a space, each empty line a break).
    /// - Parameter parent: the indentation its continuation lines must exceed.
    mutating func parseQuoted(parent: Int) throws(YAMLError) -> YAMLNode {
        let at = position
        let quote = bytes[index]
        index += 1
        var text = [UInt8]()
        /// How much of `text`'s end are spaces written as such, which a line break trims.
        var trailingSpaces = 0
        while true {
            guard index < bytes.count else { throw YAMLConverter.error(at, "the quoted scalar is not closed") }
            let byte = bytes[index]
            if byte == quote {
                if quote == 0x27, index + 1 < bytes.count, bytes[index + 1] == 0x27 {
                    text.append(0x27)
                    trailingSpaces = 0
                    index += 2
                    continue
                }
                index += 1
                break
            }
            if byte == 0x0A {
                text.removeLast(trailingSpaces)
                trailingSpaces = 0
                try foldQuotedBreak(into: &text, escaped: false, parent: parent)
                continue
            }
            if quote == 0x22, byte == 0x5C {
                if index + 1 < bytes.count, bytes[index + 1] == 0x0A {
                    index += 1
                    trailingSpaces = 0
                    try foldQuotedBreak(into: &text, escaped: true, parent: parent)
                    continue
                }
                try appendEscape(to: &text)
                trailingSpaces = 0
                continue
            }
            text.append(byte)
            trailingSpaces = isBlank(byte) ? trailingSpaces + 1 : 0
            index += 1
        }
        return .scalar(String(decoding: text, as: UTF8.self), plain: false, tag: nil, at: at)
    }

    /// At a line break inside quotes: one break is a space (none after an escaped break), each empty line a
    /// line feed; the next line's leading white space is dropped.
    private mutating func foldQuotedBreak(into text: inout [UInt8], escaped: Bool, parent: Int) throws(YAMLError) {
        var breaks = 0
        while index < bytes.count, bytes[index] == 0x0A {
            index += 1
            breaks += 1
            if atMarker("---") || atMarker("...") { throw error("a document marker inside a quoted scalar") }
            let lineStart = index
            while index < bytes.count, bytes[index] == 0x20 { index += 1 }
            let spaces = index - lineStart
            skipInlineSpaces()
            if index < bytes.count, bytes[index] != 0x0A, spaces <= parent {
                throw error("a quoted scalar's next line must be indented more than its parent")
            }
        }
        if breaks > 1 {
            text += [UInt8](repeating: 0x0A, count: breaks - 1)
        } else if !escaped {
            text.append(0x20)
        }
    }

    private mutating func appendEscape(to text: inout [UInt8]) throws(YAMLError) {
        guard index + 1 < bytes.count else { throw error("the escape at the end is not complete") }
        let code = bytes[index + 1]
        let simple: [UInt8: UInt8] = [
            0x30: 0x00, 0x61: 0x07, 0x62: 0x08, 0x74: 0x09, 0x09: 0x09, 0x6E: 0x0A, 0x76: 0x0B, 0x66: 0x0C,
            0x72: 0x0D, 0x65: 0x1B, 0x20: 0x20, 0x22: 0x22, 0x2F: 0x2F, 0x5C: 0x5C,
        ]
        if let byte = simple[code] {
            text.append(byte)
            index += 2
            return
        }
        let named: [UInt8: UInt32] = [0x4E: 0x85, 0x5F: 0xA0, 0x4C: 0x2028, 0x50: 0x2029]
        if let scalar = named[code] {
            text += Array(String(Unicode.Scalar(scalar)!).utf8)
            index += 2
            return
        }
        let digits: Int
        switch code {
        case 0x78: digits = 2
        case 0x75: digits = 4
        case 0x55: digits = 8
        default: throw error("unknown escape \\\(String(decoding: [code], as: UTF8.self))")
        }
        guard var value = hexValue(at: index + 2, digits: digits) else {
            throw error("\\\(String(decoding: [code], as: UTF8.self)) needs \(digits) hexadecimal digits")
        }
        index += 2 + digits
        // A UTF-16 surrogate pair written as two \u escapes (as JSON writes characters beyond the BMP).
        if code == 0x75, (0xD800...0xDBFF).contains(value), index + 5 < bytes.count, bytes[index] == 0x5C,
            bytes[index + 1] == 0x75, let low = hexValue(at: index + 2, digits: 4), (0xDC00...0xDFFF).contains(low)
        {
            value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
            index += 6
        }
        guard let scalar = Unicode.Scalar(value) else { throw error("\\u escape of a surrogate or beyond Unicode") }
        text += Array(String(scalar).utf8)
    }

    private func hexValue(at offset: Int, digits: Int) -> UInt32? {
        guard offset + digits <= bytes.count else { return nil }
        return UInt32(String(decoding: bytes[offset..<offset + digits], as: UTF8.self), radix: 16)
    }

    // MARK: Block scalars

    /// `|` (literal) or `>` (folded), with an optional indentation indicator and chomping (`-` strip, `+` keep).
    mutating func parseBlockScalar(parent: Int) throws(YAMLError) -> YAMLNode {
        let at = position
        let folded = bytes[index] == 0x3E
        index += 1
        var chomp: UInt8 = 0
        var explicit = 0
        for _ in 0..<2 where index < bytes.count {
            let byte = bytes[index]
            if byte == 0x2D || byte == 0x2B, chomp == 0 {
                chomp = byte
                index += 1
            } else if byte >= 0x31, byte <= 0x39, explicit == 0 {
                explicit = Int(byte - 0x30)
                index += 1
            }
        }
        let afterHeader = index
        skipInlineSpaces()
        if index < bytes.count, bytes[index] == 0x23, index > afterHeader {
            while index < bytes.count, bytes[index] != 0x0A { index += 1 }
        }
        guard index >= bytes.count || bytes[index] == 0x0A else {
            throw error("a block scalar's header ends its line (a comment may follow after a space)")
        }
        if index < bytes.count { index += 1 }
        // An indentation indicator counts from the parent's indentation (-1 at the top, as the spec counts).
        var indent = explicit > 0 ? max(parent + explicit, 0) : 0
        if explicit == 0 {
            // The first line with content sets the indentation; empty lines before it may not be deeper.
            var look = index
            var deepestEmpty = 0
            while look < bytes.count {
                var spaces = 0
                while look + spaces < bytes.count, bytes[look + spaces] == 0x20 { spaces += 1 }
                let end = look + spaces
                if end < bytes.count, bytes[end] != 0x0A {
                    indent = spaces
                    break
                }
                deepestEmpty = max(deepestEmpty, spaces)
                look = end + 1
            }
            if look >= bytes.count { indent = max(deepestEmpty, parent + 1) }  // no content: the deepest empty line
            if indent <= parent { indent = parent + 1 }
            if deepestEmpty > indent, look < bytes.count {
                throw error("an empty line before the block scalar's first line is indented more than it")
            }
        }
        // Lines: nil for an empty one (its extra spaces beyond the indentation are content).
        var lines: [[UInt8]?] = []
        while index < bytes.count {
            var spaces = 0
            while index + spaces < bytes.count, bytes[index + spaces] == 0x20, spaces < indent { spaces += 1 }
            let contentStart = index + spaces
            var end = contentStart
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            if spaces < indent {
                // Less indented: an empty line if nothing else is on it, else the end of the scalar.
                var rest = contentStart
                while rest < end, bytes[rest] == 0x20 || bytes[rest] == 0x09 { rest += 1 }
                guard rest == end else { break }
                if bytes[contentStart..<end].contains(0x09) {
                    index = contentStart
                    throw error("a tab in a block scalar's indentation")
                }
                lines.append(nil)
            } else {
                if column == 0, atMarker("---") || atMarker("...") { break }
                lines.append(contentStart == end ? nil : Array(bytes[contentStart..<end]))
            }
            index = end < bytes.count ? end + 1 : end
        }
        var text = [UInt8]()
        var pending = 0
        var previousNormal: Bool?
        var contentSeen = false
        for line in lines {
            guard let line else {
                pending += 1
                continue
            }
            let normal = !(line.first == 0x20 || line.first == 0x09)
            if !contentSeen {
                text += [UInt8](repeating: 0x0A, count: pending)
            } else if folded, normal, previousNormal == true {
                if pending == 0 { text.append(0x20) } else { text += [UInt8](repeating: 0x0A, count: pending) }
            } else {
                text += [UInt8](repeating: 0x0A, count: pending + 1)
            }
            text += line
            pending = 0
            previousNormal = normal
            contentSeen = true
        }
        switch chomp {
        case 0x2D: break
        case 0x2B:
            if contentSeen { text.append(0x0A) }
            text += [UInt8](repeating: 0x0A, count: pending)
        default:
            if contentSeen { text.append(0x0A) }
        }
        // Back to the last line break consumed, so the caller sees the next line as a new one.
        if index > 0, index <= bytes.count, bytes[index - 1] == 0x0A { index -= 1 }
        return .scalar(String(decoding: text, as: UTF8.self), plain: false, tag: nil, at: at)
    }
}

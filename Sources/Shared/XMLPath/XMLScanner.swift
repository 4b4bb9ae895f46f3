/// What `XMLScanner` tells as it reads: elements opening and closing, and text where it is wanted.
protocol XMLScanSink {
    /// Whether the element `name`, opening here, needs its attributes (building them costs time).
    func needsAttributes(of name: String) -> Bool
    mutating func start(_ name: String, attributes: [String: String])
    mutating func end()
    /// Whether text at the current position is wanted.
    var wantsText: Bool { get }
    mutating func characters(_ text: String)
}

/// A strict, non-validating reader of XML 1.0 in UTF-8 that feeds a sink (`XMLPathParser.ParseState`, `XMLShape`).
///
/// It reads elements, attributes, character data, the five predefined entities and character references,
/// CDATA sections, comments and processing instructions. It refuses, with an `XMLPathError` and never a
/// crash: bytes that are not UTF-8, control characters, a declared encoding other than UTF-8, document type
/// declarations (and so entity declarations), undefined entities, mismatched or unclosed tags, duplicate
/// attributes, nesting deeper than `maxDepth`, and anything but white space, comments and processing
/// instructions outside the root element.
struct XMLScanner<Sink: XMLScanSink> {
    static var maxDepth: Int { XMLPathParser.maxDepth }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private(set) var sink: Sink
    /// The byte ranges of the open elements' names, innermost last, to check end tags against.
    private var open: [Range<Int>] = []
    /// Reused for text and attribute values that hold references.
    private var scratch: [UInt8] = []

    init(bytes: UnsafeBufferPointer<UInt8>, sink: Sink) {
        self.bytes = bytes
        self.sink = sink
        open.reserveCapacity(32)
    }

    /// Reads the whole document.
    mutating func run() throws(XMLPathError) {
        try checkCharacters()
        if starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        if starts(with: Array("<?xml".utf8)), index + 5 < bytes.count, Self.isSpace(bytes[index + 5]) {
            try readDeclaration()
        }
        try readMisc()
        guard index < bytes.count else {
            throw error(bytes.isEmpty ? "the document is empty" : "no root element")
        }
        guard bytes[index] == UInt8(ascii: "<") else { throw error("text before the root element") }
        if starts(with: Array("<!DOCTYPE".utf8)) {
            throw error("document type declarations (and entity declarations) are not supported")
        }
        try readElements()
        try readMisc()
        if index < bytes.count { throw error("content after the root element") }
    }

    // MARK: Structure

    /// Reads the root element and everything in it.
    private mutating func readElements() throws(XMLPathError) {
        repeat {
            guard index < bytes.count else {
                throw error("the document ended early: <\(name(open.last))> is not closed")
            }
            if bytes[index] != UInt8(ascii: "<") {
                try readText()
                continue
            }
            guard index + 1 < bytes.count else { throw error("the document ended early") }
            switch bytes[index + 1] {
            case UInt8(ascii: "/"):
                try readEndTag()
            case UInt8(ascii: "!"):
                if starts(with: Array("<!--".utf8)) {
                    try readComment()
                } else if starts(with: Array("<![CDATA[".utf8)) {
                    try readCDATA()
                } else {
                    throw error("markup declarations are not supported inside elements")
                }
            case UInt8(ascii: "?"):
                try readProcessingInstruction()
            default:
                try readStartTag()
            }
        } while !open.isEmpty
    }

    private mutating func readStartTag() throws(XMLPathError) {
        index += 1
        let nameRange = try readName("element name")
        var attributes: [(name: Range<Int>, value: Range<Int>, hasReference: Bool)] = []
        while true {
            let spaced = skipSpace()
            guard index < bytes.count else { throw error("the document ended early inside a tag") }
            if bytes[index] == UInt8(ascii: ">") || starts(with: Array("/>".utf8)) { break }
            guard spaced else { throw error("attributes must be separated by white space") }
            let attributeName = try readName("attribute name")
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
                throw error("attribute \(text(attributeName)) has no value")
            }
            index += 1
            skipSpace()
            let (value, hasReference) = try readAttributeValue()
            for other in attributes where equal(other.name, attributeName) {
                throw error("attribute \(text(attributeName)) appears twice")
            }
            attributes.append((attributeName, value, hasReference))
        }
        guard open.count < Self.maxDepth else { throw error("elements nest deeper than \(Self.maxDepth)") }
        let name = text(nameRange)
        var dictionary: [String: String] = [:]
        if sink.needsAttributes(of: name) {
            for attribute in attributes {
                dictionary[text(attribute.name)] =
                    attribute.hasReference ? decodedValue(attribute.value) : text(attribute.value)
            }
        }
        open.append(nameRange)
        sink.start(name, attributes: dictionary)
        if bytes[index] == UInt8(ascii: "/") {
            index += 2
            open.removeLast()
            sink.end()
        } else {
            index += 1
        }
    }

    private mutating func readEndTag() throws(XMLPathError) {
        index += 2
        let nameRange = try readName("end tag name")
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ">") else { throw error("malformed end tag") }
        guard let current = open.last, equal(current, nameRange) else {
            throw error("end tag </\(text(nameRange))> does not match <\(name(open.last))>")
        }
        index += 1
        open.removeLast()
        sink.end()
    }

    /// Character data up to the next `<`, with its references decoded when the state collects it.
    private mutating func readText() throws(XMLPathError) {
        let start = index
        var hasReference = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "<") { break }
            if byte == UInt8(ascii: "&") {
                hasReference = true
                try skipReference()
                continue
            }
            if byte == UInt8(ascii: ">"), index >= start + 2, bytes[index - 1] == UInt8(ascii: "]"),
                bytes[index - 2] == UInt8(ascii: "]")
            {
                throw error("]]> is not allowed in character data")
            }
            index += 1
        }
        guard sink.wantsText else { return }
        sink.characters(hasReference ? decodedValue(start..<index, normalizeSpace: false) : text(start..<index))
    }

    private mutating func readCDATA() throws(XMLPathError) {
        index += 9
        guard let end = find(Array("]]>".utf8)) else { throw error("unclosed CDATA section") }
        if sink.wantsText { sink.characters(text(index..<end)) }
        index = end + 3
    }

    private mutating func readComment() throws(XMLPathError) {
        index += 4
        guard let end = find(Array("--".utf8)) else { throw error("unclosed comment") }
        guard end + 2 < bytes.count, bytes[end + 2] == UInt8(ascii: ">") else {
            throw error("-- is not allowed inside a comment")
        }
        index = end + 3
    }

    /// `<?target data?>`; the target `xml` is reserved for the declaration at the very start.
    private mutating func readProcessingInstruction() throws(XMLPathError) {
        index += 2
        let target = try readName("processing instruction target")
        if text(target).lowercased() == "xml" {
            throw error("the XML declaration is only allowed at the start of the document")
        }
        guard let end = find(Array("?>".utf8)) else { throw error("unclosed processing instruction") }
        guard end == index || Self.isSpace(bytes[index]) else { throw error("malformed processing instruction") }
        index = end + 2
    }

    /// `<?xml version="1.0" encoding="UTF-8"?>`: only UTF-8 (or no encoding, which means UTF-8) is read.
    private mutating func readDeclaration() throws(XMLPathError) {
        guard let end = find(Array("?>".utf8)) else { throw error("unclosed XML declaration") }
        let declaration = text(index..<end)
        if let range = declaration.range(of: "encoding") {
            let rest = declaration[range.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\"" || $0 == "'" }
            let encoding = rest.prefix { $0 != "\"" && $0 != "'" }
            guard ["utf-8", "utf8"].contains(encoding.lowercased()) else {
                throw error("encoding \(encoding) is not supported; the document must be UTF-8")
            }
        }
        index = end + 2
    }

    /// White space, comments and processing instructions, before or after the root element.
    private mutating func readMisc() throws(XMLPathError) {
        while true {
            skipSpace()
            if starts(with: Array("<!--".utf8)) {
                try readComment()
            } else if starts(with: Array("<?".utf8)) {
                try readProcessingInstruction()
            } else {
                return
            }
        }
    }

    // MARK: Pieces

    @discardableResult
    private mutating func skipSpace() -> Bool {
        let start = index
        while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
        return index > start
    }

    private mutating func readName(_ what: String) throws(XMLPathError) -> Range<Int> {
        let start = index
        guard index < bytes.count, Self.isNameStart(bytes[index]) else { throw error("expected an \(what)") }
        index += 1
        while index < bytes.count, Self.isNameStart(bytes[index]) || Self.isNamePart(bytes[index]) { index += 1 }
        return start..<index
    }

    private mutating func readAttributeValue() throws(XMLPathError) -> (Range<Int>, Bool) {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
            throw error("attribute values must be quoted")
        }
        let quote = bytes[index]
        index += 1
        let start = index
        var hasReference = false
        while index < bytes.count, bytes[index] != quote {
            switch bytes[index] {
            case UInt8(ascii: "<"):
                throw error("< is not allowed in an attribute value")
            case UInt8(ascii: "&"):
                hasReference = true
                try skipReference()
            case 0x09, 0x0A, 0x0D:
                hasReference = true  // normalised to a space when decoded
                index += 1
            default:
                index += 1
            }
        }
        guard index < bytes.count else { throw error("unclosed attribute value") }
        index += 1
        return (start..<(index - 1), hasReference)
    }

    /// Checks the reference at `index` (`&name;`, `&#N;`, `&#xH;`) and steps past it.
    private mutating func skipReference() throws(XMLPathError) {
        guard let semicolon = bytes[index..<min(bytes.count, index + 12)].firstIndex(of: UInt8(ascii: ";")) else {
            throw error("malformed entity reference")
        }
        guard Self.referenceValue(bytes[(index + 1)..<semicolon]) != nil else {
            throw error("undefined or invalid entity reference \(text(index..<(semicolon + 1)))")
        }
        index = semicolon + 1
    }

    /// The text of `range` with its references decoded (already checked) and, in attribute values, tabs and
    /// line breaks read as spaces.
    private func decodedValue(_ range: Range<Int>, normalizeSpace: Bool = true) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(range.count)
        var position = range.lowerBound
        while position < range.upperBound {
            let byte = bytes[position]
            if byte == UInt8(ascii: "&"), let semicolon = bytes[position..<range.upperBound].firstIndex(of: 0x3B),
                let scalar = Self.referenceValue(bytes[(position + 1)..<semicolon])
            {
                output.append(contentsOf: String(Character(scalar)).utf8)
                position = semicolon + 1
                continue
            }
            output.append(normalizeSpace && (byte == 0x09 || byte == 0x0A || byte == 0x0D) ? 0x20 : byte)
            position += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The character a reference's name stands for: a predefined entity or a valid XML character's number.
    static func referenceValue(_ name: Slice<UnsafeBufferPointer<UInt8>>) -> Unicode.Scalar? {
        switch String(decoding: name, as: UTF8.self) {
        case "lt": return "<"
        case "gt": return ">"
        case "amp": return "&"
        case "apos": return "'"
        case "quot": return "\""
        default: break
        }
        guard name.first == UInt8(ascii: "#") else { return nil }
        let digits = name.dropFirst()
        let hex = digits.first == UInt8(ascii: "x")
        let number = String(decoding: hex ? digits.dropFirst() : digits, as: UTF8.self)
        guard !number.isEmpty, number.utf8.count <= 8, let value = UInt32(number, radix: hex ? 16 : 10),
            value == 0x09 || value == 0x0A || value == 0x0D || (0x20...0xD7FF).contains(value)
                || (0xE000...0xFFFD).contains(value) || (0x1_0000...0x10_FFFF).contains(value)
        else { return nil }
        return Unicode.Scalar(value)
    }

    /// Every byte is UTF-8, and no control character other than tab, line feed and carriage return appears.
    private mutating func checkCharacters() throws(XMLPathError) {
        if let control = bytes.firstIndex(where: { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) {
            index = control
            throw error("control character 0x\(String(bytes[control], radix: 16)) is not allowed in XML")
        }
        guard String(validating: bytes, as: UTF8.self) == nil else { return }
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while case .scalarValue(let scalar) = decoder.decode(&iterator) { offset += UTF8.width(scalar) }
        index = offset
        throw error("bytes that are not UTF-8")
    }

    // MARK: Helpers

    private func starts(with prefix: [UInt8]) -> Bool {
        index + prefix.count <= bytes.count && bytes[index..<(index + prefix.count)].elementsEqual(prefix)
    }

    /// Where `needle` next occurs at or after `index`.
    private func find(_ needle: [UInt8]) -> Int? {
        guard let first = needle.first, bytes.count >= needle.count else { return nil }
        var position = index
        while position <= bytes.count - needle.count {
            if bytes[position] == first, bytes[position..<(position + needle.count)].elementsEqual(needle) {
                return position
            }
            position += 1
        }
        return nil
    }

    private func equal(_ lhs: Range<Int>, _ rhs: Range<Int>) -> Bool {
        lhs.count == rhs.count && bytes[lhs].elementsEqual(bytes[rhs])
    }

    private func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    private func name(_ range: Range<Int>?) -> String {
        range.map(text) ?? "?"
    }

    /// An error at the current position, with its line and column (in bytes), both from 1.
    private func error(_ message: String) -> XMLPathError {
        let upTo = bytes[..<min(index, bytes.count)]
        let lineStart = upTo.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        let line = upTo.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        return XMLPathError(line: line, column: min(index, bytes.count) - lineStart + 1, message: message)
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// XML's NameStartChar, read by bytes: letters, `_`, `:`, and every byte of a non-ASCII character.
    static func isNameStart(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "_"), UInt8(ascii: ":"), 0x80...0xFF: true
        default: false
        }
    }

    /// The rest of XML's NameChar: digits, `-` and `.`.
    static func isNamePart(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }
}

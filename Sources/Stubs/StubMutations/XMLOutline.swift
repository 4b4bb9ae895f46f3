/// The elements of an XML document as byte ranges, so that a mutant rewrites only the bytes it changes: each
/// element's path of names from the root (`/feed/entry/im:name`) and where its tags and content lie. Reads a
/// well-formed document's structure (declarations, comments, CDATA, a doctype with an internal subset, quoted
/// attribute values holding `>`); it does not resolve entities or namespaces: the mutants keep the bytes they do
/// not change. Nil for bytes that are not one element, properly nested, with only spaces outside it.
struct XMLOutline: Sendable, Equatable {
    struct Element: Sendable, Equatable {
        var path: String
        /// The `<` of the start tag.
        var start: Int
        /// Just past the start tag's `>`.
        var contentStart: Int
        /// The `<` of the end tag (`contentStart` for an empty-element tag).
        var contentEnd: Int
        /// Just past the end tag's `>` (or the empty-element tag's).
        var end: Int
        /// Written `<name/>`: no content to change.
        var isEmptyTag: Bool
        /// Holds no element: text only, or nothing.
        var isLeaf: Bool
    }

    /// Document order: the root first.
    let elements: [Element]

    /// Most elements open at once, as JSON's depth limit: deeper documents are read as not XML.
    static let depthLimit = 256

    init?(parsing bytes: [UInt8]) {
        var scanner = Scanner(bytes: bytes)
        guard let elements = scanner.scan() else { return nil }
        self.elements = elements
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0
        var found: [Element] = []
        /// Indices into `elements` of the elements open here, with their names.
        var open: [(element: Int, name: ArraySlice<UInt8>)] = []

        init(bytes: [UInt8]) {
            self.bytes = bytes
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        }

        mutating func scan() -> [Element]? {
            var roots = 0
            while index < bytes.count {
                if bytes[index] != UInt8(ascii: "<") {
                    // Text: only spaces outside the root.
                    if open.isEmpty, !Self.isSpace(bytes[index]) { return nil }
                    index += 1
                    continue
                }
                switch index + 1 < bytes.count ? bytes[index + 1] : 0 {
                case UInt8(ascii: "?"):
                    guard skip(past: "?>") else { return nil }
                case UInt8(ascii: "!") where starts("<!--"):
                    guard skip(past: "-->") else { return nil }
                case UInt8(ascii: "!") where starts("<![CDATA["):
                    guard !open.isEmpty, skip(past: "]]>") else { return nil }
                case UInt8(ascii: "!"):
                    guard open.isEmpty, skipDeclaration() else { return nil }
                case UInt8(ascii: "/"):
                    guard closeElement() else { return nil }
                default:
                    if open.isEmpty { roots += 1 }
                    guard roots == 1, openElement() else { return nil }
                }
            }
            return open.isEmpty && roots == 1 ? found : nil
        }

        private mutating func openElement() -> Bool {
            let start = index
            index += 1
            let nameStart = index
            while index < bytes.count, Self.isNameByte(bytes[index]) { index += 1 }
            guard index > nameStart, open.count < XMLOutline.depthLimit else { return false }
            let name = bytes[nameStart..<index]
            // Attributes, up to the `>` outside quotes.
            var quote: UInt8?
            while index < bytes.count {
                let byte = bytes[index]
                if let open = quote {
                    if byte == open { quote = nil }
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                } else if byte == UInt8(ascii: "<") {
                    return false
                } else if byte == UInt8(ascii: ">") {
                    break
                }
                index += 1
            }
            guard index < bytes.count else { return false }
            index += 1
            let isEmptyTag = bytes[index - 2] == UInt8(ascii: "/")
            let parentPath = open.last.map { found[$0.element].path } ?? ""
            if let parent = open.last { found[parent.element].isLeaf = false }
            let path = parentPath + "/" + String(decoding: name, as: UTF8.self)
            found.append(
                Element(
                    path: path, start: start, contentStart: index, contentEnd: index, end: index,
                    isEmptyTag: isEmptyTag,
                    isLeaf: true))
            if !isEmptyTag { open.append((found.count - 1, name)) }
            return true
        }

        private mutating func closeElement() -> Bool {
            let contentEnd = index
            index += 2
            let nameStart = index
            while index < bytes.count, Self.isNameByte(bytes[index]) { index += 1 }
            let name = bytes[nameStart..<index]
            while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
            guard index < bytes.count, bytes[index] == UInt8(ascii: ">"), let top = open.popLast(), top.name == name
            else { return false }
            index += 1
            found[top.element].contentEnd = contentEnd
            found[top.element].end = index
            return true
        }

        /// `<!DOCTYPE ...>`, with an internal subset in brackets that may hold `>`.
        private mutating func skipDeclaration() -> Bool {
            var depth = 0
            var quote: UInt8?
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if let open = quote {
                    if byte == open { quote = nil }
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                } else if byte == UInt8(ascii: "[") {
                    depth += 1
                } else if byte == UInt8(ascii: "]") {
                    depth -= 1
                } else if byte == UInt8(ascii: ">"), depth <= 0 {
                    return true
                }
            }
            return false
        }

        private func starts(_ text: StaticString) -> Bool {
            let count = text.utf8CodeUnitCount
            guard bytes.count - index >= count else { return false }
            return text.withUTF8Buffer { prefix in prefix.indices.allSatisfy { bytes[index + $0] == prefix[$0] } }
        }

        /// Moves past the first `text` from here; false when there is none.
        private mutating func skip(past text: StaticString) -> Bool {
            let count = text.utf8CodeUnitCount
            let first = text.utf8Start.pointee
            while bytes.count - index >= count {
                if bytes[index] == first, starts(text) {
                    index += count
                    return true
                }
                index += 1
            }
            return false
        }

        static func isSpace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
        }

        static func isNameByte(_ byte: UInt8) -> Bool {
            !isSpace(byte) && byte != UInt8(ascii: "/") && byte != UInt8(ascii: ">") && byte != UInt8(ascii: "<")
                && byte != UInt8(ascii: "=") && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "'")
        }
    }
}

extension XMLPathParser {
    /// The registered paths as a tree of element names: an open element is a node of it, or outside it, so that
    /// matching costs one small dictionary lookup per element and nothing for elements no path leads into.
    struct PathTree {
        struct Node {
            var children: [String: Int] = [:]
            var textKey: String?
            var selectors: [(key: String, required: [String])] = []
            var isRecord = false
            var matchesSomething: Bool { textKey != nil || !selectors.isEmpty || isRecord }
            var wantsText: Bool { textKey != nil || !selectors.isEmpty }
        }

        /// Node 0 stands for the document, above the root element.
        private(set) var nodes = [Node()]

        init(_ parser: XMLPathParser) {
            for (path, key) in parser.textPaths { nodes[node(for: path)].textKey = key }
            for (path, selectors) in parser.selectors { nodes[node(for: path)].selectors = selectors }
            if let record = parser.recordPath { nodes[node(for: record)].isRecord = true }
        }

        private mutating func node(for path: String) -> Int {
            var current = 0
            for name in path.split(separator: ".").map(String.init) {
                if let next = nodes[current].children[name] {
                    current = next
                } else {
                    nodes.append(Node())
                    nodes[current].children[name] = nodes.count - 1
                    current = nodes.count - 1
                }
            }
            return current
        }
    }

    /// The element stack as nodes of the `PathTree`, and the open elements something was registered for.
    /// One struct, changed by one mutating call per callback, so that each callback costs one exclusive access.
    struct ParseState: XMLScanSink {
        let tree: PathTree
        /// The tree node of every open element, innermost last; -1 for elements no registered path leads into.
        var stack: [Int] = []
        /// The open elements something was registered for, innermost last, with their direct text so far.
        var captures: [Capture] = []
        /// The depth of the innermost capture that collects text, -1 for none: checked on every text callback
        /// without copying a capture (a record's own text, white space between its children, is not collected).
        var textDepth = -1
        var sawRoot = false

        struct Capture {
            var depth: Int
            var node: Int
            var attributes: [String: String]
            var text = ""
        }

        /// Cleared when the parse ends, so that the caller's non-escaping closure is never kept.
        var handle: ((Event) -> Void)?

        /// The tree node an element named `name` opens here; -1 when no registered path leads into it.
        func childNode(_ name: String) -> Int {
            let parent = stack.last ?? 0
            return parent >= 0 ? tree.nodes[parent].children[name] ?? -1 : -1
        }

        /// Whether an element opening `node` is reported (so its attributes are needed).
        func captures(_ node: Int) -> Bool {
            node >= 0 && tree.nodes[node].matchesSomething
        }

        /// Whether text at the current position is collected.
        var wantsText: Bool { textDepth == stack.count }

        func needsAttributes(of name: String) -> Bool {
            captures(childNode(name))
        }

        mutating func start(_ name: String, attributes: [String: String]) {
            start(node: childNode(name), attributes: attributes)
        }

        mutating func start(node: Int, attributes: [String: String]) {
            sawRoot = true
            stack.append(node)
            guard captures(node) else { return }
            captures.append(Capture(depth: stack.count, node: node, attributes: attributes))
            textDepth = tree.nodes[node].wantsText ? stack.count : -1
            if tree.nodes[node].isRecord { handle?(.recordStart) }
        }

        mutating func characters(_ text: String) {
            if textDepth == stack.count { captures[captures.count - 1].text += text }
        }

        mutating func end() {
            defer { stack.removeLast() }
            // Fields are read through the subscript: `captures.last` would copy a capture, with its strings.
            guard !captures.isEmpty, captures[captures.count - 1].depth == stack.count else { return }
            let capture = captures.removeLast()
            let outer = captures.count - 1
            textDepth = outer >= 0 && tree.nodes[captures[outer].node].wantsText ? captures[outer].depth : -1
            let text = XMLPathParser.trimmed(capture.text)
            if let key = tree.nodes[capture.node].textKey { handle?(.text(key: key, value: text)) }
            for selector in tree.nodes[capture.node].selectors
            where selector.required.allSatisfy({ capture.attributes[$0] != nil }) {
                handle?(.element(key: selector.key, attributes: capture.attributes, text: text))
            }
            if tree.nodes[capture.node].isRecord { handle?(.recordEnd) }
        }
    }

    /// `text` without leading and trailing XML white space (space, tab, CR, LF), without a copy when there is
    /// none.
    static func trimmed(_ text: String) -> String {
        let utf8 = text.utf8
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        guard let head = utf8.first, let tail = utf8.last else { return "" }
        if !isSpace(head) && !isSpace(tail) { return text }
        guard let first = utf8.firstIndex(where: { !isSpace($0) }) else { return "" }
        let last = utf8.lastIndex(where: { !isSpace($0) })!
        if first == utf8.startIndex && last == utf8.index(before: utf8.endIndex) { return text }
        return String(text[first...last])
    }
}

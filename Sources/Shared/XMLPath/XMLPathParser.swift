public import Foundation

/// A streaming XML reader that reports only what its caller registered: records at one path, the text of
/// elements at given paths, and the attributes (plus text) of elements at a path that carry given attributes.
///
/// Paths are element names joined by dots, qualified names as written: `feed.entry.im:name`. A selector adds
/// `@` and the attributes an element must carry: `feed.entry.link@href,im:assetType`.
///
/// It reads with a strict XML 1.0 reader of its own (`XMLScanner`), not Foundation's `XMLParser`, which on
/// Linux crashes the process on some malformed input: any bytes end in events or an `XMLPathError`.
public struct XMLPathParser: Sendable {
    /// What the parser reports, in document order.
    public enum Event: Sendable, Equatable {
        case recordStart
        /// The trimmed text (entities decoded, CDATA included) of an element at a registered text path.
        case text(key: String, value: String)
        /// All attributes and the trimmed text of an element matching a registered selector.
        case element(key: String, attributes: [String: String], text: String)
        case recordEnd
    }

    /// The deepest element nesting read; deeper is an `XMLPathError` (the reader does not recurse).
    public static let maxDepth = 512

    let recordPath: String?
    private(set) var textPaths: [String: String] = [:]
    private(set) var selectors: [String: [(key: String, required: [String])]] = [:]

    /// - Parameter recordPath: the path of the elements that make records, such as `feed.entry`; nil for none.
    public init(recordPath: String? = nil) {
        self.recordPath = recordPath
    }

    /// Reports the text of every element at `path` under `key`.
    public mutating func text(_ path: String, as key: String) {
        textPaths[path] = key
    }

    /// Reports every element at a selector's path that carries all its listed attributes, under `key`.
    /// - Parameter selector: `path@name1,name2`; `path@` or a bare path matches every element there.
    public mutating func element(_ selector: String, as key: String) {
        let parts = selector.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        let required =
            parts.count > 1 ? parts[1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } : []
        selectors[String(parts[0]), default: []].append((key, required))
    }

    /// Parses `data`, calling `handle` for every event in document order.
    /// - Throws: `XMLPathError` with the line and column of malformed XML; events already handled belong to a
    ///   document that turned out broken and must be discarded.
    public func parse(_ data: Data, _ handle: (Event) -> Void) throws(XMLPathError) {
        try withoutActuallyEscaping(handle) { escapable throws(XMLPathError) in
            let state = ParseState(tree: PathTree(self), handle: escapable)
            let result: Result<Void, XMLPathError> = data.withUnsafeBytes { raw in
                var scanner = XMLScanner(bytes: raw.bindMemory(to: UInt8.self), sink: state)
                do throws(XMLPathError) {
                    try scanner.run()
                    return .success(())
                } catch {
                    return .failure(error)
                }
            }
            try result.get()
        }
    }

    /// Parses `data` into records, each a list of its events' values.
    /// - Throws: `XMLPathError` for malformed XML; then no records are returned.
    public func records(_ data: Data) throws(XMLPathError) -> [XMLRecord] {
        var records: [XMLRecord] = []
        var current: XMLRecord?
        try parse(data) { event in
            switch event {
            case .recordStart: current = XMLRecord()
            case .recordEnd:
                if let finished = current { records.append(finished) }
                current = nil
            case .text(let key, let value): current?.texts[key, default: []].append(value)
            case .element(let key, let attributes, let text):
                current?.elements[key, default: []].append(XMLRecord.Element(attributes: attributes, text: text))
            }
        }
        return records
    }
}

/// Malformed XML, located by line and column.
public struct XMLPathError: Error, Equatable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var message: String

    public var description: String { "malformed XML at line \(line), column \(column): \(message)" }
}

/// What one record held: texts and elements by key, in document order.
public struct XMLRecord: Sendable, Equatable {
    public var texts: [String: [String]] = [:]
    public var elements: [String: [Element]] = [:]

    /// An element matched by a selector.
    public struct Element: Sendable, Equatable {
        public var attributes: [String: String]
        public var text: String
    }

    /// The first text reported under `key`.
    public func text(_ key: String) -> String? { texts[key]?.first }
}

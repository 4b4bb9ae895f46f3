package import JSONModel

/// Reads YAML 1.2 as OpenAPI documents use it into the `JSONValue`s the matchers use: block mappings and
/// sequences, flow `{}` and `[]`, plain, single- and double-quoted scalars, literal `|` and folded `>` block
/// scalars, comments, `---` documents, anchors, aliases and merge keys `<<`, and the core schema's scalars.
///
/// What is outside that subset (explicit `?` keys, complex keys, tags other than the core schema's `!!`, directives
/// other than `%YAML`) is refused with a message, as are tabs in indentation, duplicate keys, undefined aliases,
/// alias expansion past a bound, nesting past 512 levels and bytes that are not UTF-8; never read to a wrong value.
package enum YAMLReader {
    /// Most levels of nested collections.
    package static let maxDepth = 512

    /// The documents of `bytes`, each as a value (an empty document is `null`).
    /// - Throws: `YAMLError` with the line and column of the first problem.
    package static func documents(_ bytes: [UInt8]) throws(YAMLError) -> [JSONValue] {
        var parser = try YAMLParser(bytes)
        let nodes = try parser.parseStream()
        var values: [JSONValue] = []
        for node in nodes {
            var converter = YAMLConverter(budget: max(100_000, bytes.count * 20))
            values.append(try converter.value(of: node))
        }
        return values
    }

    /// The one document of `bytes`.
    /// - Throws: `YAMLError`, also when there is not exactly one document.
    package static func value(_ bytes: [UInt8]) throws(YAMLError) -> JSONValue {
        let all = try documents(bytes)
        guard all.count == 1 else {
            throw YAMLError(line: 1, column: 1, message: "expected one document, found \(all.count)")
        }
        return all[0]
    }
}

/// Why YAML could not be read, and where.
package struct YAMLError: Error, Equatable, CustomStringConvertible {
    package var line: Int
    package var column: Int
    package var message: String

    package init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    package var description: String { "line \(line), column \(column): \(message)" }
}

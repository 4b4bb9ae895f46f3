/// A path to a value inside a JSON document: `user.name`, `items[0].id`, `[2]` for an array at the top.
package struct JSONPath: Sendable, Equatable, CustomStringConvertible {
    package let description: String
    let steps: [Step]

    enum Step: Equatable {
        case key(String)
        case index(Int)
    }

    /// - Throws: `JSONPath.SyntaxError` for an empty segment, an unclosed or non-numeric index.
    package init(_ text: String) throws(SyntaxError) {
        description = text
        var steps: [Step] = []
        guard !text.isEmpty else { throw SyntaxError(message: "empty path") }
        for segment in text.split(separator: ".", omittingEmptySubsequences: false) {
            var rest = segment
            let key = rest.prefix { $0 != "[" }
            rest = rest.dropFirst(key.count)
            if !key.isEmpty {
                steps.append(.key(String(key)))
            } else if rest.isEmpty || (segment.startIndex != text.startIndex) {
                throw SyntaxError(message: "empty segment in \(text.debugDescription)")
            }
            while !rest.isEmpty {
                guard rest.first == "[", let close = rest.firstIndex(of: "]") else {
                    throw SyntaxError(message: "expected [INDEX] in \(text.debugDescription)")
                }
                let digits = rest[rest.index(after: rest.startIndex)..<close]
                guard !digits.isEmpty, digits.count < 10, digits.allSatisfy(\.isASCII), let index = Int(digits),
                    index >= 0
                else {
                    throw SyntaxError(message: "index must be a whole number, not \(String(digits).debugDescription)")
                }
                steps.append(.index(index))
                rest = rest[rest.index(after: close)...]
            }
        }
        self.steps = steps
    }

    /// The value at this path in `document`, nil when a key or index is missing or a step meets the wrong type.
    package func value(in document: JSONValue) -> JSONValue? {
        var current = document
        for step in steps {
            switch (step, current) {
            case (.key(let key), .object(let fields)):
                guard let next = fields[key] else { return nil }
                current = next
            case (.index(let index), .array(let items)):
                guard index < items.count else { return nil }
                current = items[index]
            default:
                return nil
            }
        }
        return current
    }

    /// Why a path could not be read.
    package struct SyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
        package var message: String
        package var description: String { message }
    }
}

import Foundation

/// How a stub matches one query item or header: exactly, by regular expression, present or absent.
public enum ValueMatcher: Sendable, Equatable, CustomStringConvertible {
    case exact(String)
    case matches(Pattern)
    case present
    case absent

    /// A compiled regular expression with its source text.
    public struct Pattern: Sendable, Equatable {
        public let source: String
        let regex: NSRegularExpression

        /// - Throws: the compiler's error when `source` is not a valid regular expression.
        public init(_ source: String) throws {
            self.source = source
            self.regex = try NSRegularExpression(pattern: source)
        }

        func matches(_ value: String) -> Bool {
            regex.firstMatch(in: value, range: NSRange(value.startIndex..., in: value)) != nil
        }

        public static func == (lhs: Pattern, rhs: Pattern) -> Bool { lhs.source == rhs.source }
    }

    /// Whether `value` (nil when the item is missing) satisfies this matcher.
    func accepts(_ value: String?) -> Bool {
        switch self {
        case .exact(let expected): value == expected
        case .matches(let pattern): value.map(pattern.matches) ?? false
        case .present: value != nil
        case .absent: value == nil
        }
    }

    /// Exact matchers count as more specific than patterns and presence checks.
    var isExact: Bool {
        if case .exact = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .exact(let value): value.debugDescription
        case .matches(let pattern): "matches /\(pattern.source)/"
        case .present: "present"
        case .absent: "absent"
        }
    }
}

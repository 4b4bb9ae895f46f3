/// How a stub matches one query item or header: exactly, by regular expression, present or absent.
package enum ValueMatcher: Sendable, Equatable, CustomStringConvertible {
    case exact(String)
    case matches(Pattern)
    case present
    case absent

    /// Whether `value` (nil when the item is missing) satisfies this matcher.
    package func accepts(_ value: String?) -> Bool {
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

    package var description: String {
        switch self {
        case .exact(let value): value.debugDescription
        case .matches(let pattern): "matches /\(pattern.source)/"
        case .present: "present"
        case .absent: "absent"
        }
    }
}

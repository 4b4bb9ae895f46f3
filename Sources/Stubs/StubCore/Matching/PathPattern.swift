/// A request path with literal segments and `{name}` segments that match any one segment.
package struct PathPattern: Sendable, Equatable, CustomStringConvertible {
    /// One segment of the pattern.
    package enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    package let segments: [Segment]
    /// True for the catch-all pattern that matches every path.
    let matchesEverything: Bool
    package let description: String

    /// Parses `/albums/{id}/tracks`; `{name}` must fill a whole segment.
    package init(_ text: String) {
        description = text
        matchesEverything = false
        segments = Self.split(text).map { part in
            if part.count > 2, part.first == "{", part.last == "}" {
                return .parameter(String(part.dropFirst().dropLast()))
            }
            return .literal(String(part))
        }
    }

    private init(everything: Void) {
        description = "/**"
        matchesEverything = true
        segments = []
    }

    /// The pattern that matches any path.
    static let everything = PathPattern(everything: ())

    /// The segment values captured by `{name}` segments, or nil if `path` does not match.
    package func match(_ path: String) -> [String: String]? {
        if matchesEverything { return [:] }
        let parts = Self.split(path)
        guard parts.count == segments.count else { return nil }
        var captures: [String: String] = [:]
        for (segment, part) in zip(segments, parts) {
            switch segment {
            case .literal(let literal):
                guard literal == part else { return nil }
            case .parameter(let name):
                guard !part.isEmpty else { return nil }
                captures[name] = String(part)
            }
        }
        return captures
    }

    /// The segments after the leading `/`, split at every `/` byte. Not at `Character`s: a combining mark after a
    /// slash (`/%CC%A8`) joins it into one grapheme, which would hide the slash from `split(separator:)`.
    private static func split(_ path: String) -> [Substring] {
        path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropFirst().map {
            Substring($0)
        }
    }

    /// How many segments are literal: more literal segments make a more specific stub.
    var literalCount: Int {
        segments.filter { if case .literal = $0 { true } else { false } }.count
    }
}

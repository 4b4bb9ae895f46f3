import Locking

extension ValueMatcher {
    /// A compiled regular expression with its source text.
    ///
    /// The syntax is Swift's `Regex` (the ICU/PCRE family: `\d`, `[^/]+`, `(?i)`, lazy quantifiers), matched by
    /// Unicode scalar and anywhere in the value unless anchored, as `NSRegularExpression` matched before: `$` also
    /// matches before a line terminator that ends the value.
    package struct Pattern: Sendable, Equatable {
        package let source: String
        private let compiled: Compiled
        /// The source's bytes when it has no metacharacter: matched by a plain search, ten times faster.
        private let literal: [UInt8]?

        /// - Throws: the compiler's error when `source` is not a valid regular expression.
        package init(_ source: String) throws {
            self.source = source
            self.compiled = Compiled(
                try Regex(source).matchingSemantics(.unicodeScalar), hasDollar: source.utf8.contains(UInt8(ascii: "$")))
            let metacharacters = Set(#"\^$.|?*+()[]{}"#.utf8)
            literal = source.utf8.contains(where: metacharacters.contains) ? nil : Array(source.utf8)
        }

        package func matches(_ value: String) -> Bool {
            if let literal {
                var value = value
                return value.withUTF8 { Self.bytes($0, contain: literal) }
            }
            return compiled.regex.withLock { regex in
                // `firstMatch` rather than `contains`: the same answer, a third faster (measured in Swift 6.3).
                if (try? regex.firstMatch(in: value)) != nil { return true }
                // ICU's `$` also matches before a line terminator that ends the text, Swift's only at the very end:
                // a pattern with `$` gets a second try without that terminator.
                guard compiled.hasDollar, let end = Self.endBeforeFinalLineTerminator(value) else { return false }
                return (try? regex.firstMatch(in: value[..<end])) != nil
            }
        }

        package static func == (lhs: Pattern, rhs: Pattern) -> Bool { lhs.source == rhs.source }

        /// Whether `needle` occurs in `haystack`; on UTF-8 a byte match is a scalar match.
        private static func bytes(_ haystack: UnsafeBufferPointer<UInt8>, contain needle: [UInt8]) -> Bool {
            guard needle.count <= haystack.count else { return false }
            if needle.isEmpty { return true }
            for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
                if haystack[start..<start + needle.count].elementsEqual(needle) { return true }
            }
            return false
        }

        private static func endBeforeFinalLineTerminator(_ value: String) -> String.Index? {
            let scalars = value.unicodeScalars
            guard let last = scalars.last, "\n\r\u{0B}\u{0C}\u{85}\u{2028}\u{2029}".unicodeScalars.contains(last) else {
                return nil
            }
            var end = scalars.index(before: scalars.endIndex)
            if last == "\n", end > scalars.startIndex, scalars[scalars.index(before: end)] == "\r" {
                end = scalars.index(before: end)
            }
            return end
        }

        /// `Regex` is not `Sendable` (it compiles its program lazily), so the one copy is used under a lock:
        /// uncontended, since one loop thread does the matching.
        private final class Compiled: Sendable {
            let regex: Lock<Regex<AnyRegexOutput>>
            let hasDollar: Bool

            init(_ regex: sending Regex<AnyRegexOutput>, hasDollar: Bool) {
                self.regex = Lock(regex)
                self.hasDollar = hasDollar
            }
        }
    }
}

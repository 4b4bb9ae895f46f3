/// How many answers each stub gave, per variant and as mutants: counted as they are decided, for the control page's
/// served and unserved variants.
package struct ServedCounts: Sendable, Equatable {
    /// Answers of each stub's variants, unmutated, by stub and variant name.
    package private(set) var variants: [String: [String: Int]] = [:]
    /// Answers of each stub that were a mutant of a variant, by stub name.
    package private(set) var mutants: [String: Int] = [:]

    package init() {}

    /// Counts one answer of `stub`'s `variant` as written.
    package mutating func count(_ stub: String, variant: String?) {
        guard let variant else { return }
        variants[stub, default: [:]][variant, default: 0] += 1
    }

    /// Counts one answer of `stub` that was a mutant of a variant.
    package mutating func countMutant(of stub: String) {
        mutants[stub, default: 0] += 1
    }
}

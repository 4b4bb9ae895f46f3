import Locking

/// The mutants of the bodies mutated lately, with their parsed documents: a sweep asks for one mutant of the same
/// answer hundreds of times, each from a new server, and the body is parsed and its mutants listed once. A body
/// rendered from a template (its server's URL in it) is listed once per template: by the template rendered as for
/// any server, its `listedAs` body.
final class MutantCache: Sendable {
    struct Entry: Sendable {
        let mutants: [Mutation]
        /// Each listed mutant's position, by its ID and by each of its aliases.
        let index: [String: Int]
        /// The body as JSON, nil when it is not.
        let document: JSONNode?
        /// The body's XML elements, nil when it is JSON or not XML.
        let outline: XMLOutline?
    }

    static let shared = MutantCache(capacity: 8)
    private let capacity: Int
    /// Newest first, each under its body and the body its mutants were listed from (the same but for a template's
    /// answer); the bodies compare in an instant when they share storage (one fixture's answer).
    private let entries = Lock<[(body: [UInt8], listedAs: [UInt8], entry: Entry)]>([])

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Forgets every entry.
    func removeAll() {
        entries.withLock { $0.removeAll() }
    }

    /// The mutants of an answer with `body`, listed from `listedAs()` (by default `body`), made outside the lock on a
    /// miss: on a template's answer whose `listedAs()` was listed before, only `body` is parsed.
    func entry(for body: [UInt8], listedAs: (() -> [UInt8])? = nil) -> Entry {
        if let hit = entries.withLock({ $0.first { Self.same($0.body, body) }?.entry }) { return hit }
        let listedAs = listedAs?() ?? body
        let listed =
            Self.same(listedAs, body) ? nil : entries.withLock { $0.first { Self.same($0.listedAs, listedAs) }?.entry }
        let document = JSONNode(parsing: body)
        let outline = document == nil ? XMLOutline(parsing: body) : nil
        let entry: Entry
        if let listed {
            entry = Entry(mutants: listed.mutants, index: listed.index, document: document, outline: outline)
        } else {
            let listing = Self.same(listedAs, body) ? document : JSONNode(parsing: listedAs)
            let mutants = Mutations.list(
                body: listedAs, listing,
                listing == nil ? (Self.same(listedAs, body) ? outline : XMLOutline(parsing: listedAs)) : nil)
            let ids = mutants.enumerated().flatMap { index, mutant in
                ([mutant.id] + mutant.aliases).map { ($0, index) }
            }
            entry = Entry(
                mutants: mutants, index: Dictionary(ids) { first, _ in first }, document: document, outline: outline)
        }
        entries.withLock { entries in
            entries.removeAll { $0.body == body }
            entries.insert((body, listedAs, entry), at: 0)
            if entries.count > capacity { entries.removeLast() }
        }
        return entry
    }

    /// Whether two bodies hold the same bytes: at once when they share storage, else eight bytes at a time (a
    /// sweep's rendered bodies are tens of kilobytes, compared on every request).
    private static func same(_ one: [UInt8], _ other: [UInt8]) -> Bool {
        guard one.count == other.count else { return false }
        return one.withUnsafeBytes { one in
            other.withUnsafeBytes { other in
                if one.baseAddress == other.baseAddress { return true }
                let words = one.count / 8
                for word in 0..<words
                where one.loadUnaligned(fromByteOffset: word * 8, as: UInt64.self)
                    != other.loadUnaligned(fromByteOffset: word * 8, as: UInt64.self)
                {
                    return false
                }
                return one[(words * 8)...].elementsEqual(other[(words * 8)...])
            }
        }
    }
}

import Locking

/// The mutants of the bodies mutated lately, with their parsed documents: a sweep asks for one mutant of the same
/// answer hundreds of times, each from a new server, and the body is parsed and its mutants listed once.
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
    /// Newest first; the bodies compare in an instant when they share storage (one fixture's answer).
    private let entries = Lock<[(body: [UInt8], entry: Entry)]>([])

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Forgets every entry.
    func removeAll() {
        entries.withLock { $0.removeAll() }
    }

    /// The mutants of an answer with `body`, made outside the lock on a miss.
    func entry(for body: [UInt8]) -> Entry {
        if let hit = entries.withLock({ $0.first { $0.body == body }?.entry }) { return hit }
        let document = JSONNode(parsing: body)
        let outline = document == nil ? XMLOutline(parsing: body) : nil
        let mutants = Mutations.list(body: body, document, outline)
        let ids = mutants.enumerated().flatMap { index, mutant in ([mutant.id] + mutant.aliases).map { ($0, index) } }
        let entry = Entry(
            mutants: mutants, index: Dictionary(ids) { first, _ in first }, document: document, outline: outline)
        entries.withLock { entries in
            entries.removeAll { $0.body == body }
            entries.insert((body, entry), at: 0)
            if entries.count > capacity { entries.removeLast() }
        }
        return entry
    }
}

import Locking

/// The mutants of the streams and conversations listed lately, by what they were made of: a sweep asks for one
/// mutant of the same stream hundreds of times, each from a new server, and the list is made once. A source is
/// known by its text, compared byte for byte (`String ==` would take two spellings of one character for the same
/// stream, whose mutants differ).
final class RecentListings<Source: Sendable>: Sendable {
    /// A listing: the candidates in order, each one's position by ID, and the distinct list once asked for.
    final class Entry: Sendable {
        let candidates: [Mutation]
        let index: [String: Int]
        private let distinct = Lock<[Mutation]?>(nil)

        init(_ candidates: [Mutation]) {
            self.candidates = candidates
            index = Dictionary(candidates.enumerated().map { ($1.id, $0) }) { first, _ in first }
        }

        /// The distinct list, made by `make` on the first call.
        func distinct(_ make: () -> [Mutation]) -> [Mutation] {
            if let made = distinct.withLock({ $0 }) { return made }
            let made = make()
            distinct.withLock { $0 = made }
            return made
        }
    }

    private let capacity: Int
    /// Newest first, by the source's text.
    private let entries = Lock<[(key: [UInt8], entry: Entry)]>([])

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The listing of `source`, made by `candidates` outside the lock on a miss.
    func entry(for source: Source, _ candidates: () -> [Mutation]) -> Entry {
        let key = Array(String(reflecting: source).utf8)
        if let hit = entries.withLock({ $0.first { $0.key == key }?.entry }) { return hit }
        let entry = Entry(candidates())
        entries.withLock { entries in
            entries.removeAll { $0.key == key }
            entries.insert((key, entry), at: 0)
            if entries.count > capacity { entries.removeLast() }
        }
        return entry
    }
}

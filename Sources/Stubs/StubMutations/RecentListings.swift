import Locking

/// The mutants of the streams and conversations listed lately, by what they were made of: a sweep asks for one
/// mutant of the same stream hundreds of times, each from a new server, and the list is made once.
final class RecentListings<Source: Equatable & Sendable>: Sendable {
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
    /// Newest first.
    private let entries = Lock<[(source: Source, entry: Entry)]>([])

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The listing of `source`, made by `candidates` outside the lock on a miss.
    func entry(for source: Source, _ candidates: () -> [Mutation]) -> Entry {
        if let hit = entries.withLock({ $0.first { $0.source == source }?.entry }) { return hit }
        let entry = Entry(candidates())
        entries.withLock { entries in
            entries.removeAll { $0.source == source }
            entries.insert((source, entry), at: 0)
            if entries.count > capacity { entries.removeLast() }
        }
        return entry
    }
}

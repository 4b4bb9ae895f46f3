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
    /// The source's text as bytes, compared as well as `==`: `String ==` takes two spellings of one character for
    /// the same text, whose mutants differ. Nil where spelling it out would cost more than the listing saves.
    private let bytes: (@Sendable (Source) -> [UInt8])?
    /// Newest first.
    private let entries = Lock<[(source: Source, bytes: [UInt8], entry: Entry)]>([])

    init(capacity: Int, bytes: (@Sendable (Source) -> [UInt8])? = nil) {
        self.capacity = capacity
        self.bytes = bytes
    }

    /// The listing of `source`, made by `candidates` outside the lock on a miss.
    func entry(for source: Source, _ candidates: () -> [Mutation]) -> Entry {
        let text = bytes?(source) ?? []
        let isSource = { (kept: (source: Source, bytes: [UInt8], entry: Entry)) in
            kept.source == source && kept.bytes == text
        }
        if let hit = entries.withLock({ $0.first(where: isSource)?.entry }) { return hit }
        let entry = Entry(candidates())
        entries.withLock { entries in
            entries.removeAll(where: isSource)
            entries.insert((source, text, entry), at: 0)
            if entries.count > capacity { entries.removeLast() }
        }
        return entry
    }
}

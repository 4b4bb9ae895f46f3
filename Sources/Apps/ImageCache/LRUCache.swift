/// A memory cache bounded by total cost and entry count that evicts the least recently used entries first.
struct LRUCache<Key: Hashable, Value> {
    let costLimit: Int
    let countLimit: Int
    private var entries: [Key: (value: Value, cost: Int, lastUse: UInt64)] = [:]
    private var clock: UInt64 = 0
    private(set) var totalCost = 0

    init(costLimit: Int, countLimit: Int) {
        self.costLimit = costLimit
        self.countLimit = countLimit
    }

    var count: Int { entries.count }

    /// The value for `key`, which becomes the most recently used.
    mutating func value(for key: Key) -> Value? {
        guard let entry = entries[key] else { return nil }
        clock += 1
        entries[key] = (entry.value, entry.cost, clock)
        return entry.value
    }

    /// Stores `value`, then evicts least recently used entries until both limits hold.
    /// A value costlier than the whole limit is not stored.
    mutating func insert(_ value: Value, for key: Key, cost: Int) {
        remove(key)
        guard cost <= costLimit else { return }
        clock += 1
        entries[key] = (value, cost, clock)
        totalCost += cost
        while totalCost > costLimit || entries.count > countLimit {
            guard let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key else { break }
            remove(oldest)
        }
    }

    mutating func remove(_ key: Key) {
        if let entry = entries.removeValue(forKey: key) { totalCost -= entry.cost }
    }

    mutating func removeAll() {
        entries = [:]
        totalCost = 0
    }
}

/// Connection timers ordered by deadline: a binary min-heap. Entries are not removed when a deadline moves;
/// the loop skips an entry that no longer matches its connection's armed deadline.
struct TimerQueue {
    struct Entry: Equatable {
        var deadline: Double
        var fd: Int32
        var connection: UInt64
    }

    private var heap: [Entry] = []

    var isEmpty: Bool { heap.isEmpty }
    var count: Int { heap.count }
    /// The earliest deadline.
    var next: Double? { heap.first?.deadline }

    mutating func insert(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].deadline < heap[parent].deadline else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the earliest entry if it is due at `now`.
    mutating func popDue(now: Double) -> Entry? {
        guard let first = heap.first, first.deadline <= now else { return nil }
        let last = heap.removeLast()
        guard !heap.isEmpty else { return first }
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count, heap[left].deadline < heap[smallest].deadline { smallest = left }
            if right < heap.count, heap[right].deadline < heap[smallest].deadline { smallest = right }
            guard smallest != parent else { break }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
        return first
    }
}

import Locking
import TestTurns
import Testing

/// The one lock: every change made under it is seen by the next holder, from any thread, and a body that throws
/// leaves it free.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct LockTests {
    final class Counter: Sendable {
        let count = Lock(0)
    }

    @Test(arguments: [1, 8, 32])
    func increments_fromManyTasksAtOnce_areAllCounted(_ tasks: Int) async {
        let counter = Counter()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<tasks {
                group.addTask {
                    for _ in 0..<10_000 { counter.count.withLock { $0 += 1 } }
                }
            }
        }
        #expect(counter.count.withLock { $0 } == tasks * 10_000)
    }

    struct Refused: Error, Equatable {}

    @Test func aBodyThatThrows_keepsItsChange_andLeavesTheLockFree() {
        let lock = Lock([Int]())
        #expect(throws: Refused()) {
            try lock.withLock { (values: inout [Int]) throws(Refused) in
                values.append(1)
                throw Refused()
            }
        }
        #expect(lock.withLock { $0 } == [1])
        lock.withLock { $0.append(2) }
        #expect(lock.withLock { $0 } == [1, 2])
    }
}

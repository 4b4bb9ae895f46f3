import TestTurns
import Testing

@testable import HTTPEngine

@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct TimerQueueTests {
    @Test func entries_comeOutInDeadlineOrder_onlyWhenDue() {
        var queue = TimerQueue()
        var generator = SystemRandomNumberGenerator()
        let deadlines = (0..<200).map { _ in Double(Int.random(in: 0..<1000, using: &generator)) }
        for (index, deadline) in deadlines.enumerated() {
            queue.insert(TimerQueue.Entry(deadline: deadline, fd: Int32(index), connection: UInt64(index)))
        }
        #expect(queue.popDue(now: -1) == nil)
        var popped: [Double] = []
        while let entry = queue.popDue(now: 500) { popped.append(entry.deadline) }
        #expect(popped == deadlines.filter { $0 <= 500 }.sorted())
        #expect(queue.next.map { $0 > 500 } ?? true)
        while let entry = queue.popDue(now: .infinity) { popped.append(entry.deadline) }
        #expect(popped == deadlines.sorted())
        #expect(queue.isEmpty)
    }
}

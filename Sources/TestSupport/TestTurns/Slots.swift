import Foundation

/// At most `count` holders at once; the rest wait their turn, first come first served, without holding a thread.
package actor Slots {
    /// Every suite's tests (`TakesTurns`): 8 per core at once keep the cores busy while tests wait on sockets and
    /// timers. Under `SWEEP=all` (CI's sweep step, the sweeps alone) no limit, as for the heavy ones.
    package static let tests = Slots(count: FullSweep.isOn ? 1_000 : 8 * ProcessInfo.processInfo.processorCount)

    /// The heavy suites' tests (`.takesTurns(.heavy)`). Under `SWEEP=all` (CI's sweep step, the sweeps alone) no
    /// limit: the sweeps hold their cases to turns of their own, and a sweep's test that waits out hangs for minutes
    /// would hold back the rest.
    package static let heavyTests = Slots(count: FullSweep.isOn ? 1_000 : 6)

    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// How many wait for a slot now.
    package var waitingCount: Int { waiting.count }

    package init(count: Int) {
        free = count
    }

    /// Returns once a slot is this caller's.
    package func acquire() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Runs `body` holding one of `slots`' slots, given back however `body` ends.
    @discardableResult
    package static func holding<T>(
        _ slots: Slots, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
    ) async rethrows -> T {
        await slots.acquire()
        do {
            let result = try await body()
            await slots.release()
            return result
        } catch {
            await slots.release()
            throw error
        }
    }

    /// Gives the caller's slot to the first waiting, or back.
    package func release() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}

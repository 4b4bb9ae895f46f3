#if compiler(>=6.2) && (os(macOS) || os(Linux))
    import Foundation
    import Locking
    import StubServer

    /// A batch's child: starts its mutants `concurrency` at a time, each on its own thread, and says how each ended;
    /// a watchdog thread says which outlived the window and which trapped. After a hang it starts no more (the hung
    /// code may still be running) and ends once the running ones have ended.
    final class BatchChild: Sendable {
        private struct State {
            var decided: [Bool]
            var deadlines: [Int: ContinuousClock.Instant] = [:]
            var running = 0
            var stopped = false
            /// Who waits, and for what: fewer running than `below`, or (when `orStopped`) a hang.
            var waiter: (below: Int, orStopped: Bool, continuation: CheckedContinuation<Bool, Never>)?
        }

        private let state: Lock<State>
        private let limit: Duration

        private init(count: Int, limit: Duration) {
            state = Lock(State(decided: Array(repeating: false, count: count)))
            self.limit = limit
        }

        static func run(
            _ batch: StubMutant.Batch, within limit: Duration,
            _ each: @escaping @Sendable (StubMutant) async throws -> Void
        ) async -> Never {
            BatchSignals.install(count: batch.mutants.count)
            let child = BatchChild(count: batch.mutants.count, limit: limit)
            child.watch()
            for (index, mutant) in batch.mutants.enumerated() {
                guard await child.wait(untilFewerThan: max(1, batch.concurrency), orStopped: true),
                    child.start(index)
                else { break }
                Task(executorPreference: MutantThread(slot: index)) {
                    await BatchSignals.$running.withValue(index) {
                        do {
                            try await each(mutant)
                            child.decide(.passed, index)
                        } catch {
                            FileHandle.standardError.write(Data("\(mutant.id): \(error)\n".utf8))
                            child.decide(.failed, index)
                        }
                    }
                }
            }
            _ = await child.wait(untilFewerThan: 1, orStopped: false)
            BatchReport.say(.end, batch.mutants.count)
            Foundation.exit(0)
        }

        /// Starts the clock of mutant `index`; false when a hang has stopped the child from starting more.
        private func start(_ index: Int) -> Bool {
            let started = state.withLock { state in
                guard !state.stopped else { return false }
                state.running += 1
                state.deadlines[index] = .now + limit
                return true
            }
            // Before its task exists, so before any word of how it ended.
            if started { BatchReport.say(.start, index) }
            return started
        }

        /// Waits until fewer than `count` mutants run (true), or, when `orStopped`, until one has hung (false).
        private func wait(untilFewerThan count: Int, orStopped: Bool) async -> Bool {
            await withCheckedContinuation { continuation in
                state.withLock { state in
                    if orStopped && state.stopped {
                        continuation.resume(returning: false)
                    } else if state.running < count {
                        continuation.resume(returning: true)
                    } else {
                        state.waiter = (count, orStopped, continuation)
                    }
                }
            }
        }

        /// Records how mutant `index` ended, once: the first word said of it stands. A trap was said by the signal
        /// handler already.
        private func decide(_ word: BatchReport.Word, _ index: Int) {
            let decided = state.withLock { state in
                guard !state.decided[index] else { return false }
                state.decided[index] = true
                state.deadlines[index] = nil
                state.running -= 1
                state.stopped = state.stopped || word == .hung
                return true
            }
            guard decided else { return }
            // Said before the runner may go on (and end the child); outside the lock, so that nothing said can hold
            // it.
            if word != .crashed { BatchReport.say(word, index) }
            state.withLock { state in
                guard let waiter = state.waiter else { return }
                if waiter.orStopped && state.stopped {
                    waiter.continuation.resume(returning: false)
                } else if state.running < waiter.below {
                    waiter.continuation.resume(returning: true)
                } else {
                    return
                }
                state.waiter = nil
            }
        }

        /// The watchdog: a thread of its own (code that keeps every task busy cannot hold it back) that records the
        /// mutants whose thread parked after a trap, then those past their window.
        private func watch() {
            Thread.detachNewThread { [self] in
                while true {
                    Thread.sleep(forTimeInterval: 0.01)
                    let running = state.withLock { Array($0.deadlines) }
                    for (index, _) in running where BatchSignals.hasParked(index) { decide(.crashed, index) }
                    let now = ContinuousClock.now
                    for (index, deadline) in running where deadline <= now && !BatchSignals.hasParked(index) {
                        decide(.hung, index)
                    }
                }
            }
        }
    }
#endif

#if compiler(>=6.2) && (os(macOS) || os(Linux))
    import Dispatch
    import Foundation
    import Locking

    /// One mutant's own thread, as the executor its task prefers: the task and the tasks it starts run their
    /// nonisolated code here, so a trap in them stops this thread alone (`BatchSignals`) and the other mutants of
    /// the batch run on. The thread stays, idle, until the process ends: work left behind by the mutant's code still
    /// finds it.
    final class MutantThread: TaskExecutor {
        private let jobs = Lock<[UnownedJob]>([])
        private let ready = DispatchSemaphore(value: 0)

        /// Starts the thread, which first says that it is `slot`'s (before it runs any job).
        init(slot: Int) {
            Thread.detachNewThread { [self] in
                BatchSignals.register(slot: slot)
                while true {
                    ready.wait()
                    guard let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
                    job.runSynchronously(on: asUnownedTaskExecutor())
                }
            }
        }

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            jobs.withLock { $0.append(job) }
            ready.signal()
        }
    }
#endif

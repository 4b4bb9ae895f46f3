#if compiler(>=6.2) && (os(macOS) || os(Linux))
    import Dispatch
    import Foundation
    import Locking

    /// One mutant's own thread, as the executor its task prefers: the task and its child tasks (`async let`, task
    /// groups) run their nonisolated code here, and default actors they create, so a trap in that code stops this
    /// thread alone (`BatchSignals`) and the other mutants of the batch run on. An unstructured `Task {}` does not
    /// inherit the preference, and actors with executors of their own (the main actor) run elsewhere: a trap there
    /// ends the child. The thread stays, idle, until the process ends: work left behind by the mutant's code still
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

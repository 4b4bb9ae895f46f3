// Exit tests: Swift 6.2's compiler and later, on macOS and Linux (not iOS, tvOS, watchOS or
// visionOS, where a test cannot start a process).
#if compiler(>=6.2) && (os(macOS) || os(Linux))
    import Foundation
    import Locking
    public import StubServer
    public import StubServerInProcess
    public import Testing

    extension StubMutant {
        /// Mutants run one after another in one child process, by `outcomes(of:batchSize:lanes:_:)`: a crash or a
        /// hang ends that child only, and the next child resumes after the mutant that ended it.
        public struct Batch: Sendable, Codable {
            /// The mutants, in the order the child runs them.
            public let mutants: [StubMutant]

            /// Runs each mutant with a fresh in-process server answering it (as `exitAfter(within:_:)` runs one), in
            /// order, saying on standard error which one it starts and how each ended; then ends the process. A
            /// crash (a trap, `abort`, a bad access) or a mutant still running after `limit` ends it at once: the
            /// parent reads which mutant it was on. Call it as the body of the exit test `outcomes(of:...)` asks for.
            public func exitAfterEach(
                within limit: Duration = .seconds(5),
                _ body: @escaping @Sendable (InProcessStubs) async throws -> Void
            ) async -> Never {
                await run(within: limit) { mutant in try await mutant.withStubs { stubs in try await body(stubs) } }
            }

            /// `exitAfterEach(within:_:)` with a server on a loopback port for each mutant (`withServer(_:)`).
            public func exitAfterServingEach(
                within limit: Duration = .seconds(5), _ body: @escaping @Sendable (StubServer) async throws -> Void
            ) async -> Never {
                await run(within: limit) { mutant in
                    try await mutant.withServer { server in try await body(server) }
                }
            }

            private func run(
                within limit: Duration, _ each: @escaping @Sendable (StubMutant) async throws -> Void
            ) async -> Never {
                BatchReport.catchCrashes()
                let watch = BatchWatch()
                watch.start()
                for (index, mutant) in mutants.enumerated() {
                    BatchReport.say(.start, index)
                    watch.arm(index, until: ContinuousClock.now + limit)
                    let outcome: Outcome
                    do {
                        try await each(mutant)
                        outcome = .passed
                    } catch {
                        FileHandle.standardError.write(Data("\(mutant.id): \(error)\n".utf8))
                        outcome = .failed
                    }
                    watch.disarm()
                    BatchReport.say(outcome == .passed ? .passed : .failed, index)
                }
                Foundation.exit(0)
            }
        }

        /// Runs `mutants` in child processes, many mutants per child, and returns each one's outcome, in order:
        /// `exitTest` is called with each batch and must run it as an exit test that observes standard error,
        /// expecting success (a child that crashed or hung says so and ends successfully):
        ///
        /// ```swift
        /// let outcomes = await StubMutant.outcomes(of: try StubMutant.all(of: "top-albums")) { batch in
        ///     await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
        ///         [batch = batch as StubMutant.Batch] in
        ///         await batch.exitAfterEach(within: .seconds(5)) { stubs in
        ///             // ... load the screen through stubs.sessionConfiguration
        ///         }
        ///     }
        /// }
        /// ```
        ///
        /// The mutants are dealt to `lanes` series of children run side by side (by default one per active
        /// processor: on Linux each running exit test holds a thread of the concurrency pool, which has as many);
        /// each child takes at most `batchSize` of its lane's mutants (64 by default, so that what a child leaks
        /// stays bounded) and runs them until the first that crashes or hangs; the next child starts after it. For code
        /// that leaves nothing running once it returns, the outcomes are those one child per mutant gives; a child is started once per crash or hang instead of
        /// once per mutant. An outcome is nil when no child could say it (the exit test did not run).
        public static func outcomes(
            of mutants: [StubMutant], batchSize: Int = 64, lanes: Int? = nil,
            _ exitTest: @escaping @Sendable (Batch) async -> ExitTest.Result?
        ) async -> [Outcome?] {
            let laneCount = max(1, min(mutants.count, lanes ?? ProcessInfo.processInfo.activeProcessorCount))
            return await withTaskGroup(of: [(Int, Outcome?)].self) { group in
                for lane in 0..<laneCount {
                    let indices = Array(stride(from: lane, to: mutants.count, by: laneCount))
                    group.addTask {
                        await runLane(indices.map { ($0, mutants[$0]) }, batchSize: max(1, batchSize), exitTest)
                    }
                }
                var outcomes = [Outcome?](repeating: nil, count: mutants.count)
                for await lane in group {
                    for (index, outcome) in lane { outcomes[index] = outcome }
                }
                return outcomes
            }
        }

        /// One lane: its mutants through one child after another, each resuming after the one that ended the last.
        private static func runLane(
            _ mutants: [(index: Int, mutant: StubMutant)], batchSize: Int,
            _ exitTest: @Sendable (Batch) async -> ExitTest.Result?
        ) async -> [(Int, Outcome?)] {
            var outcomes: [(Int, Outcome?)] = []
            var next = 0
            while next < mutants.count {
                let taken = Array(mutants[next..<min(mutants.count, next + batchSize)])
                guard let result = await exitTest(Batch(mutants: taken.map(\.mutant))) else {
                    // No result (the exit test did not run, or its child ended in a way the expectation refused and
                    // Swift Testing kept its output back): this mutant's outcome is not known; the rest still run.
                    outcomes.append((mutants[next].index, nil))
                    next += 1
                    continue
                }
                let said = BatchReport.read(result.standardErrorContent, count: taken.count)
                for (position, outcome) in said.enumerated() {
                    outcomes.append((taken[position].index, outcome))
                }
                next += max(1, said.count)
            }
            return outcomes
        }
    }

    /// What a batch's child says on standard error, one line each, and how the parent reads it back.
    package enum BatchReport {
        enum Word: String {
            case start, passed, failed, hung, crashed
        }

        static let prefix = "stub-mutant-batch"

        static func say(_ word: Word, _ index: Int) {
            FileHandle.standardError.write(Data("\n\(prefix) \(word.rawValue) \(index)\n".utf8))
        }

        /// The outcomes of the batch's first mutants, up to the one that ended the child: each ended mutant's, then
        /// the one the child was on when it ended (hung if it said so; else crashed: it ended while the mutant ran).
        package static func read(_ standardError: [UInt8], count: Int) -> [StubMutant.Outcome] {
            var outcomes: [StubMutant.Outcome] = []
            var running: Int?
            var hung = false
            let text = String(decoding: standardError, as: UTF8.self)
            for line in text.split(separator: "\n") where line.hasPrefix(prefix + " ") {
                let words = line.split(separator: " ")
                guard words.count == 3, let word = Word(rawValue: String(words[1])), let index = Int(words[2]),
                    index == outcomes.count, index < count
                else { continue }
                switch word {
                case .start: running = index
                case .passed, .failed:
                    if running == index {
                        (outcomes, running) = (outcomes + [word == .passed ? .passed : .failed], nil)
                    }
                case .hung: hung = running == index
                case .crashed: break
                }
            }
            if running != nil { outcomes.append(hung ? .hung : .crashed) }
            return outcomes
        }

        /// The line a crash leaves: written by the signal handler with `write(2)` from a static string.
        static let crashLine: StaticString = "\nstub-mutant-batch crashed -1\n"

        /// Traps, aborts and bad accesses end the child successfully after one line on standard error, so that the
        /// exit test's expectation holds and the parent reads the crash from the lines (one child per mutant reads
        /// it from the signal instead).
        static func catchCrashes() {
            _ = crashLine.utf8Start  // made before a handler may read it
            for signalNumber in [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE] {
                _ = signal(signalNumber) { _ in
                    _ = write(2, BatchReport.crashLine.utf8Start, BatchReport.crashLine.utf8CodeUnitCount)
                    _exit(0)
                }
            }
        }
    }

    /// The child's watchdog: a thread of its own (a body that keeps every task busy cannot hold it back) that ends
    /// the process when the running mutant outlives its time, saying which it was.
    final class BatchWatch: Sendable {
        /// The running mutant's index and the time it must end by; nil between mutants.
        private let armed = Lock<(index: Int, deadline: ContinuousClock.Instant)?>(nil)

        func start() {
            Thread.detachNewThread { [self] in
                while true {
                    Thread.sleep(forTimeInterval: 0.01)
                    // Under the lock: a mutant that ends now waits in `disarm()`, so no line of the next one can
                    // come between the verdict and the end.
                    armed.withLock { armed in
                        if let (index, deadline) = armed, ContinuousClock.now >= deadline {
                            BatchReport.say(.hung, index)
                            _exit(0)
                        }
                    }
                }
            }
        }

        func arm(_ index: Int, until deadline: ContinuousClock.Instant) { armed.withLock { $0 = (index, deadline) } }
        func disarm() { armed.withLock { $0 = nil } }
    }
#endif

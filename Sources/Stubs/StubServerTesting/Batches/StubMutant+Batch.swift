// Exit tests: Swift 6.2's compiler and later, on macOS and Linux (not iOS, tvOS, watchOS or
// visionOS, where a test cannot start a process).
#if compiler(>=6.2) && (os(macOS) || os(Linux))
    import Foundation
    public import StubServer
    public import StubServerInProcess
    public import Testing

    extension StubMutant {
        /// Mutants run many at a time in one child process, by `outcomes(of:batchSize:concurrency:lanes:_:)`: a trap
        /// stops the mutant that trapped only, a hang stops the child from starting more, and the next child resumes
        /// with the mutants not yet run.
        public struct Batch: Sendable, Codable {
            /// The mutants, in the order the child starts them.
            public let mutants: [StubMutant]
            /// How many of them run at once.
            public let concurrency: Int

            /// Runs each mutant with a fresh in-process server answering it (as `exitAfter(within:_:)` runs one),
            /// `concurrency` at a time, each on a thread of its own (its task's executor), saying on standard error
            /// which one it starts and how each ended; then ends the process. A trap (a force-unwrapped nil, `try!`,
            /// `as!`, an index out of range) stops only the thread of the mutant it came from; a mutant still
            /// running after `limit` is recorded hung and no further one starts. Call it as the body of the exit test
            /// `outcomes(of:...)` asks for.
            public func exitAfterEach(
                within limit: Duration = .seconds(5),
                _ body: @escaping @Sendable (InProcessStubs) async throws -> Void
            ) async -> Never {
                await BatchChild.run(self, within: limit) { mutant in
                    try await mutant.withStubs { stubs in try await body(stubs) }
                }
            }

            /// `exitAfterEach(within:_:)` with a server on a loopback port for each mutant (`withServer(_:)`).
            public func exitAfterServingEach(
                within limit: Duration = .seconds(5), _ body: @escaping @Sendable (StubServer) async throws -> Void
            ) async -> Never {
                await BatchChild.run(self, within: limit) { mutant in
                    try await mutant.withServer { server in try await body(server) }
                }
            }
        }

        /// Runs `mutants` in child processes, many mutants per child and several at once in each, and returns each
        /// one's outcome, in order: `exitTest` is called with each batch and must run it as an exit test that observes
        /// standard error, expecting success (a child that saw a crash or a hang says so and ends successfully):
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
        /// processor: on Linux each running exit test holds a thread of the concurrency pool, which has as many).
        /// Each child takes at most `batchSize` of its lane's mutants (64 by default, so that what a child leaks stays
        /// bounded) and runs `concurrency` of them at once (16 by default: a sweep's cases mostly wait, for a stream's
        /// pauses or a hang's window; on two cores MockData's chat sweep took 19 s at 8, 11 s at 16, 14 s at 32). The
        /// window is wall time shared with the runs beside it: give code that computes for long a longer window or a
        /// lower concurrency, and pass 1 for code that shares state between runs. A child starts no more mutants once
        /// one hangs (its code may still be running), and ends at once on a crash no thread of its own can take (a
        /// bad access, or a trap on the main actor or in an unstructured task); the mutants that were running then
        /// run again, one at a time, in the next child, and those not started go on as before. A hang seen after a trap in the same child is checked
        /// again the same way (the trapped thread may hold a lock the hung one waits for). For code that leaves
        /// nothing running once it returns, the outcomes are those one child per mutant gives. An outcome is nil when
        /// no child could say it (the exit test did not run).
        public static func outcomes(
            of mutants: [StubMutant], batchSize: Int = 64, concurrency: Int = 16, lanes: Int? = nil,
            _ exitTest: @escaping @Sendable (Batch) async -> ExitTest.Result?
        ) async -> [Outcome?] {
            let laneCount = max(1, min(mutants.count, lanes ?? ProcessInfo.processInfo.activeProcessorCount))
            let sizes = (batch: max(1, batchSize), concurrency: max(1, concurrency))
            return await withTaskGroup(of: [(Int, Outcome?)].self) { group in
                for lane in 0..<laneCount {
                    let indices = Array(stride(from: lane, to: mutants.count, by: laneCount))
                    group.addTask { await runLane(indices.map { ($0, mutants[$0]) }, sizes, exitTest) }
                }
                var outcomes = [Outcome?](repeating: nil, count: mutants.count)
                for await lane in group {
                    for (index, outcome) in lane { outcomes[index] = outcome }
                }
                return outcomes
            }
        }

        /// How a lane runs a mutant: many at once in a child; alone (one at a time in a child); or in a child of its
        /// own.
        private enum Turn {
            case many, alone, own
        }

        /// One lane: its mutants through one child after another. Those a child left unsaid run next, alone when the
        /// child could not say which of them it was on or saw their hang after a trap; when a child gave no result at
        /// all (it ended in a way its exit test refused, such as a stack overflow), each of its mutants in a child of
        /// its own.
        private static func runLane(
            _ mutants: [(index: Int, mutant: StubMutant)], _ sizes: (batch: Int, concurrency: Int),
            _ exitTest: @Sendable (Batch) async -> ExitTest.Result?
        ) async -> [(Int, Outcome?)] {
            var outcomes: [(Int, Outcome?)] = []
            var pending = mutants.map { (index: $0.index, mutant: $0.mutant, turn: Turn.many) }
            while let first = pending.first {
                let limit = first.turn == .own ? 1 : sizes.batch
                let taken = Array(pending.prefix { $0.turn == first.turn }.prefix(limit))
                pending.removeFirst(taken.count)
                let batch = Batch(
                    mutants: taken.map(\.mutant), concurrency: first.turn == .many ? sizes.concurrency : 1)
                guard let result = await exitTest(batch) else {
                    if taken.count == 1 {
                        // Its own child gave no result (or the exit test did not run): not known.
                        outcomes.append((first.index, nil))
                    } else {
                        pending.insert(contentsOf: taken.map { ($0.index, $0.mutant, Turn.own) }, at: 0)
                    }
                    continue
                }
                let reading = BatchReport.read(result.standardErrorContent, count: taken.count)
                var again: [(index: Int, mutant: StubMutant, turn: Turn)] = []
                var later = again
                for (position, item) in taken.enumerated() {
                    if let outcome = reading.outcomes[position] {
                        outcomes.append((item.index, outcome))
                    } else if reading.alone.contains(position) {
                        again.append((item.index, item.mutant, item.turn == .own ? .own : .alone))
                    } else {
                        later.append(item)
                    }
                }
                if again.isEmpty && later.count == taken.count {
                    // The child said nothing at all: its first mutant is not known, so that the lane ends.
                    outcomes.append((first.index, nil))
                    later.removeFirst()
                }
                pending = again + later + pending
            }
            return outcomes
        }
    }
#endif

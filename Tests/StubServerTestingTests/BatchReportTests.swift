#if compiler(>=6.2) && (os(macOS) || os(Linux))
    import StubServerTesting
    import TestTurns
    import Testing

    /// What the parent of a batch's child reads from its standard error: each mutant's outcome where the child said
    /// it, and which to run again alone.
    @Suite(.takesTurns, .timeLimit(.minutes(1)))
    struct BatchReportTests {
        static func read(_ lines: [String], count: Int = 5) -> BatchReport.Reading {
            BatchReport.read(Array(lines.map { "stub-mutant-batch \($0)\n" }.joined().utf8), count: count)
        }

        static func outcomes(_ known: [StubMutant.Outcome?], count: Int = 5) -> [StubMutant.Outcome?] {
            known + Array(repeating: nil, count: count - known.count)
        }

        @Test(
            arguments: [
                ([], [], []),
                (["start 0", "passed 0", "end 1"], [.passed], []),
                // Ended without its end line: one started, so it crashed (a stack overflow says nothing); of two, the
                // second runs again alone, as what ended the child may be code the first left running.
                (["start 0", "failed 0", "start 1"], [.failed, nil], [1]),
                (["start 0"], [.crashed], []),
                (["start 0", "crashed -1"], [.crashed], []),
                (["start 0", "hung 0", "end 1"], [.hung], []),
                // Several at once, ending in any order; a trap stops one and the rest run on.
                (
                    ["start 0", "start 1", "start 2", "crashed 1", "passed 2", "failed 0", "end 3"],
                    [.failed, .crashed, .passed], []
                ),
                // The first word said of a mutant stands.
                (["start 0", "hung 0", "crashed 0", "passed 0", "end 1"], [.hung], []),
                // A hang after a trap in the same child: checked again alone.
                (["start 0", "start 1", "crashed 0", "hung 1", "end 2"], [.crashed, nil], [1]),
                (["start 0", "start 1", "hung 1", "crashed 0", "end 2"], [.crashed, .hung], []),
                // A crash that ended the child: the one it names crashed; the others running run again alone.
                (["start 0", "start 1", "start 2", "passed 0", "exited 2"], [.passed, nil, .crashed], [1]),
                // A crash that ended the child in code a decided mutant left running: the other is run again.
                (["start 0", "start 1", "hung 0", "exited 0"], [.hung, nil], [1]),
                (["start 0", "passed 0", "start 1", "crashed -1"], [.passed, nil], [1]),
                // The child ended with two running and did not say which: both again alone.
                (["start 0", "start 1", "crashed -1"], [nil, nil], [0, 1]),
                (["start 0", "start 1"], [nil, nil], [0, 1]),
                // Nothing is believed after the end.
                (["start 0", "end 1", "crashed 0"], [nil], []),
                // Out of order or out of range: not believed.
                (["start 1", "passed 1"], [], []),
                (["passed 0"], [], []),
                (["start 0", "hung 1"], [.crashed], []),
                (["start 0", "passed 0", "start 1", "end 2", "passed 1"], [.passed, nil], []),
            ] as [([String], [StubMutant.Outcome?], Set<Int>)])
        func theLines_sayEachOutcome(_ lines: [String], _ outcomes: [StubMutant.Outcome?], _ alone: Set<Int>) {
            #expect(Self.read(lines) == BatchReport.Reading(outcomes: Self.outcomes(outcomes), alone: alone))
        }

        @Test func theAppsOwnOutput_betweenTheLines_isIgnored() {
            let text = "noise\n\nstub-mutant-batch start 0\nhalf a line\nstub-mutant-batch passed 0\nx: y\n"
            #expect(BatchReport.read(Array(text.utf8), count: 1).outcomes == [.passed])
        }

        @Test func aWholeBatch_endsAtItsCount() {
            let lines = (0..<3).flatMap { ["start \($0)", "passed \($0)"] }
            #expect(Self.read(lines, count: 2) == BatchReport.Reading(outcomes: [.passed, .passed], alone: []))
        }
    }
#endif

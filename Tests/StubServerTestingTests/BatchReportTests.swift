#if compiler(>=6.2) && (os(macOS) || os(Linux))
    import StubServerTesting
    import Testing

    /// What the parent of a batch's child reads from its standard error: each ended mutant's outcome, then the one
    /// the child was on when it ended.
    @Suite(.timeLimit(.minutes(1)))
    struct BatchReportTests {
        static func read(_ text: String, count: Int = 5) -> [StubMutant.Outcome] {
            BatchReport.read(Array(text.utf8), count: count)
        }

        @Test(
            arguments: [
                ("", []),
                ("stub-mutant-batch start 0\nstub-mutant-batch passed 0\n", [.passed]),
                (
                    "stub-mutant-batch start 0\nstub-mutant-batch failed 0\nstub-mutant-batch start 1\n",
                    [.failed, .crashed]
                ),
                ("stub-mutant-batch start 0\nstub-mutant-batch crashed -1\n", [.crashed]),
                ("stub-mutant-batch start 0\nstub-mutant-batch hung 0\n", [.hung]),
                // The app's own output between the lines, and a line of its cut by one of ours.
                ("noise\nstub-mutant-batch start 0\nhalf a line\nstub-mutant-batch passed 0\nx: y\n", [.passed]),
                // Out of order or out of range: not believed.
                ("stub-mutant-batch start 1\nstub-mutant-batch passed 1\n", []),
                ("stub-mutant-batch passed 0\n", []),
                ("stub-mutant-batch start 0\nstub-mutant-batch hung 1\n", [.crashed]),
            ] as [(String, [StubMutant.Outcome])])
        func theLines_sayEachOutcome(_ text: String, _ expected: [StubMutant.Outcome]) {
            #expect(Self.read(text) == expected)
        }

        @Test func aWholeBatch_endsAtItsCount() {
            let text = (0..<3).map { "stub-mutant-batch start \($0)\nstub-mutant-batch passed \($0)\n" }.joined()
            #expect(Self.read(text, count: 2) == [.passed, .passed])
        }
    }
#endif

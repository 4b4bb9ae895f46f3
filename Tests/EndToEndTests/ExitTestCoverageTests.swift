// Exit tests capturing a mutant: Swift 6.3's compiler, on macOS and Linux.
#if compiler(>=6.3) && (os(macOS) || os(Linux))
    import Foundation
    import StubCoverage
    import StubServerTesting
    import StubTestSupport
    import TestTurns
    import Testing

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// An exit test's child process records the answers its stubs gave, under the name of the test that ran it (no
    /// test is current in the child): each line the child's journal entry, nothing lost, nothing doubled.
    // Ten minutes: its children wait their turn behind the sweeps' (`Slots.exitTests`), and the clock runs
    // while they wait.
    @Suite(.takesTurns(.heavy), .timeLimit(.minutes(10)))
    struct ExitTestCoverageTests {
        @Test func anExitTestsChild_recordsItsAnswers_underTheTestThatRanIt() async throws {
            let folder = CoverageRecordingTests.folder()
            let journals = CoverageRecordingTests.folder()
            defer {
                try? FileManager.default.removeItem(at: folder)
                try? FileManager.default.removeItem(at: journals)
            }
            try FileManager.default.createDirectory(at: journals, withIntermediateDirectories: true)
            let mutants = try StubMutant.all(of: "top-albums").filter { ["status:503", "body:empty"].contains($0.id) }
            #expect(mutants.count == 2)
            for (index, mutant) in mutants.enumerated() {
                let (coverage, journal) = (folder.path, journals.appendingPathComponent("\(index).txt").path)
                await Slots.holding(.exitTests) {
                    await #expect(processExitsWith: .success) {
                        [mutant = mutant as StubMutant, coverage = coverage as String, journal = journal as String] in
                        // The child's own environment: the run-wide setting a parent would pass down.
                        setenv("STUB_COVERAGE_DIR", coverage, 1)
                        await mutant.exitAfter(within: .seconds(60)) { stubs in
                            let session = URLSession(configuration: stubs.sessionConfiguration)
                            let albums = URL(
                                string: "https://rss.applemarketingtools.com" + CoverageRecordingTests.albumsPath)!
                            for _ in 0..<3 {
                                _ = try await session.data(for: URLRequest(url: albums, timeoutInterval: 60))
                            }
                            let lines = stubs.journal().map { entry in
                                "\(entry.stub ?? "-") \(entry.variant ?? "-") \(entry.mutation ?? "-") \(entry.status ?? 0)"
                            }
                            try lines.joined(separator: "\n").write(toFile: journal, atomically: true, encoding: .utf8)
                        }
                    }
                }
            }
            let records = try CoverageInput.records(in: folder)
            let journaled = try (0..<mutants.count).flatMap { index in
                try String(contentsOf: journals.appendingPathComponent("\(index).txt"), encoding: .utf8)
                    .split(separator: "\n").map(String.init)
            }
            #expect(journaled.count == 6)
            #expect(
                records.map { "\($0.stub ?? "-") \($0.variant ?? "-") \($0.mutation ?? "-") \($0.status ?? 0)" }
                    .sorted()
                    == journaled.sorted())
            #expect(
                Set(records.map(\.test))
                    == [
                        "EndToEndTests.ExitTestCoverageTests/anExitTestsChild_recordsItsAnswers_underTheTestThatRanIt()"
                    ])
            #expect(Set(records.compactMap(\.mutation)) == ["status:503", "body:empty"])
        }
    }
#endif

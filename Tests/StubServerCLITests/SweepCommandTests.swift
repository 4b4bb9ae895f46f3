// These tests run the built `stub-server` as a process: compiled only where a test can start one.
#if os(macOS) || os(Linux)
    import Foundation
    import StubTestSupport
    import TestTurns
    import Testing

    /// `stub-server sweep`: a client run against every mutant of a small answer is reported passed, failed, crashed
    /// or hung for exactly the mutants it was made to fail on, in the lines and the report; the mutants reach it
    /// over HTTP; a client that fails on the unmutated answer is refused before any mutant runs.
    // Ten minutes: under SWEEP=all (CI's sweep step) thousands of cases start at once and each case's clock runs
    // while it waits its turn, so a minute fails cases that are only queued.
    @Suite(.takesTurns(.heavy), .timeLimit(.minutes(10)))
    struct SweepCommandTests {
        static let stubs = """
            {"stubs": [{"name": "item", "request": {"method": "GET", "path": "/item"},
              "variants": {
                "good": {"status": 200, "headers": {"Content-Type": "application/json"},
                         "body": "{\\"name\\": \\"a\\", \\"count\\": 2}"},
                "bad": {"status": 500, "body": "{}"}, "nil": {"status": 200, "body": "null"}}}]}
            """

        /// The outcome of each mutant in `--report`'s JSON, by ID, and its counts.
        static func outcomes(in report: URL) throws -> (byID: [String: String], counts: [String: Int]) {
            let object = try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any]
            let results = object?["results"] as? [[String: Any]] ?? []
            let byID = Dictionary(
                uniqueKeysWithValues: results.map { ($0["mutation"] as? String ?? "", $0["outcome"] as? String ?? "") })
            return (byID, object?["counts"] as? [String: Int] ?? [:])
        }

        /// With `STUB_COVERAGE_DIR`, the sweep records every answer it served: the baseline's and one per mutant, as
        /// many as its report lists, each mutant by its ID.
        @Test func theSweep_recordsEveryAnswerItServed() async throws {
            let fixtures = try TemporaryFixtures(["api/stubs.json": Self.stubs])
            defer { fixtures.remove() }
            let folder = fixtures.url("served")
            let report = fixtures.url("report.json")
            // The client fetches its answer; a hanging mutant is cut by the sweep's timeout window.
            let client = #"curl -s -o /dev/null --max-time 60 "$STUB_SERVER_URL/item"; exit 0"#
            let result = try await CLIRunner.run(
                [
                    "sweep", "--fixtures", fixtures.root.path, "--stub", "item", "--timeout", "3", "--report",
                    report.path, "--", "sh", "-c", client,
                ], environment: ["STUB_COVERAGE_DIR": folder.path], limit: 60)
            #expect(result.status == 1 || result.status == 0, "\(result.stderr)")
            let (byID, _) = try Self.outcomes(in: report)
            let lines = try FileManager.default.contentsOfDirectory(atPath: folder.path).flatMap { file in
                try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8).split(separator: "\n")
            }
            let records = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            let mutations = records.compactMap { $0?["mutation"] as? String }
            #expect(records.count == byID.count + 1, "the baseline and each mutant")
            #expect(Set(mutations) == Set(byID.keys))
            #expect(records.allSatisfy { $0?["stub"] as? String == "item" })
        }

        /// With `--jobs 4` too: four runs at once, each against a server of its own, report the same.
        @Test(arguments: ["1", "4"])
        func aClientThatFailsCrashesAndHangs_onChosenMutants_isReportedSo(_ jobs: String) async throws {
            let fixtures = try TemporaryFixtures(["api/stubs.json": Self.stubs])
            defer { fixtures.remove() }
            let client = """
                case "$STUB_MUTATION" in
                  status:500|status:503) echo "saw $STUB_MUTATION"; exit 1 ;;
                  body:empty|name:null) kill -SEGV $$ ;;
                  status:404) exec sleep 60 ;;
                esac
                exit 0
                """
            let report = fixtures.url("report.json")
            let result = try await CLIRunner.run(
                [
                    "sweep", "--fixtures", fixtures.root.path, "--stub", "item", "--timeout", "3", "--jobs", jobs,
                    "--report", report.path, "--", "sh", "-c", client,
                    // About fifty runs of a shell, and three seconds for the one that hangs.
                ], limit: 60)
            #expect(result.status == 1, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\n").map(String.init)
            func reported(_ outcome: String) -> Set<String> {
                Set(lines.filter { $0.hasPrefix(outcome + " ") }.map { $0.split(separator: " ")[1] }.map(String.init))
            }
            #expect(lines.first?.hasPrefix("baseline  passed") == true)
            #expect(reported("failed") == ["status:500", "status:503"])
            #expect(reported("crashed") == ["body:empty", "name:null"])
            #expect(reported("hung") == ["status:404"])
            let passed = reported("passed")
            #expect(passed.count >= 40 && passed.contains("name:removed") && passed.contains("fault:hang"))
            #expect(
                lines.last
                    == "swept \(passed.count + 5) mutants of item (good): \(passed.count) passed, 2 failed, 2 crashed, 1 hung"
            )

            let (byID, counts) = try Self.outcomes(in: report)
            #expect(byID.count == passed.count + 5)
            #expect(byID.filter { $0.value == "failed" }.keys.sorted() == ["status:500", "status:503"])
            #expect(byID.filter { $0.value == "crashed" }.keys.sorted() == ["body:empty", "name:null"])
            #expect(byID.filter { $0.value == "hung" }.keys.sorted() == ["status:404"])
            #expect(counts == ["passed": passed.count, "failed": 2, "crashed": 2, "hung": 1])
        }

        /// Each run reaches the server its mutant was chosen on, one at a time or four at once.
        @Test(arguments: ["1", "4"])
        func theMutants_reachTheClient_overHTTP(_ jobs: String) async throws {
            let fixtures = try TemporaryFixtures(["api/stubs.json": Self.stubs])
            defer { fixtures.remove() }
            // Fails when the answer has no "name": removed, or a body that is no object with it; an answer that does
            // not come (the hang fault, the late answer) fails in two seconds.
            let client = #"curl -s --max-time 2 "$STUB_SERVER_URL/item" | grep -q '"name"'"#
            let report = fixtures.url("report.json")
            let result = try await CLIRunner.run(
                [
                    "sweep", "--fixtures", fixtures.root.path, "--stub", "item", "--jobs", jobs, "--report",
                    report.path, "--", "sh", "-c", client,
                ], limit: 60)
            #expect(result.status == 1, "\(result.stderr)")
            let (byID, _) = try Self.outcomes(in: report)
            #expect(byID["name:removed"] == "failed")
            #expect(byID["body:{}"] == "failed")
            #expect(byID["name:null"] == "passed")
            #expect(byID["count:removed"] == "passed")
            #expect(byID["fault:hang"] == "failed")
            let object = try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any]
            let order = (object?["results"] as? [[String: Any]] ?? []).compactMap { $0["mutation"] as? String }
            let listed = try await CLIRunner.run(["mutations", fixtures.root.path, "--stub", "item"])
            let ids = listed.stdout.split(separator: "\n").compactMap {
                $0.split(separator: " ").first.map(String.init)
            }
            #expect(order == ids, "the report lists the mutants in their order, however many ran at once")
        }

        /// An event stream is swept like a body: a client that passes when `data: [DONE]` begins a line fails exactly
        /// on the mutants whose stream has no such line (cut before it, no terminal, CR endings, a pause past its
        /// patience, an answer that is no stream) and passes the rest, each served over HTTP by its ID.
        @Test func aStreamStub_isSweptByEventAndByEnding() async throws {
            let stream = """
                {"stubs": [{"name": "answer", "request": {"method": "GET", "path": "/answer"},
                  "variants": {"good": {"events": [
                      {"event": "token", "id": "1", "data": {"t": "a"}},
                      {"event": "token", "id": "2", "data": {"t": "b"}},
                      {"event": "done", "id": "3", "data": "[DONE]"}]},
                    "bad": {"status": 500, "body": "{}"}, "nil": {"status": 200, "body": ""}}}]}
                """
            let fixtures = try TemporaryFixtures(["api/stubs.json": stream])
            defer { fixtures.remove() }
            // Two seconds of patience: the hangs and the 61-second pause fail in two seconds each.
            let client = #"curl -s -N --max-time 2 "$STUB_SERVER_URL/answer" | grep -q '^data: \[DONE\]'"#
            let report = fixtures.url("report.json")
            let result = try await CLIRunner.run(
                [
                    "sweep", "--fixtures", fixtures.root.path, "--stub", "answer", "--timeout", "20", "--report",
                    report.path, "--", "sh", "-c", client,
                ], limit: 300)
            #expect(result.status == 1, "\(result.stderr)")
            let (byID, counts) = try Self.outcomes(in: report)
            let failed: Set<String> = [
                "status:204", "status:503", "body:html-error-page", "events:no-terminal", "events:cr",
                "events:idle-pause", "event[1]:then-end", "event[1]:then-reset", "event[1]:then-hang",
                "event[2]:then-end", "event[2]:then-reset", "event[2]:then-hang",
            ]
            #expect(Set(byID.filter { $0.value == "failed" }.keys) == failed)
            // Swept once: `event[3]:dropped` sends what `events:no-terminal` sends, and `data(token).t:removed` what
            // `data(token):empty` sends. (`event[2]:then-end` sends the same first answer too, but a client that
            // resumes after it gets the rest as written: a mutant of its own.)
            for twin in ["event[3]:dropped", "data(token).t:removed"] {
                #expect(byID[twin] == nil, "\(twin) is an alias, not a case of its own")
            }
            #expect(byID.count == 51, "every mutant of the three events: \(byID.keys.sorted())")
            #expect(counts == ["passed": 51 - failed.count, "failed": failed.count, "crashed": 0, "hung": 0])
            for passing in [
                "event[3]:then-hang", "event[3]:then-reset", "events:crlf", "event[2]:split", "events:huge-event",
                "data(token):null", "data(token):as-array",
            ] {
                #expect(byID[passing] == "passed", "\(passing)")
            }
        }

        @Test func aClientThatFailsTheUnmutatedAnswer_isRefusedBeforeAnyMutant() async throws {
            let fixtures = try TemporaryFixtures(["api/stubs.json": Self.stubs])
            defer { fixtures.remove() }
            let result = try await CLIRunner.run([
                "sweep", "--fixtures", fixtures.root.path, "--stub", "item", "--", "sh", "-c", "echo broken; exit 3",
            ])
            #expect(result.status == 64)
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.contains("the command failed (exit status 3"), "\(result.stderr)")
            #expect(result.stderr.contains("on the unmutated answer of item (good)"))
            #expect(result.stderr.contains("  broken"))
        }

        @Test(arguments: [
            (["sweep", "--stub", "item"], Int32(64), "sweep needs a command to run after --"),
            (["sweep", "--", "true"], 64, "sweep needs --stub NAME"),
            (["sweep", "--stub", "item", "--timeout", "0", "--", "true"], 64, "--timeout must be"),
            (["sweep", "--stub", "item", "--jobs", "0", "--", "true"], 64, "--jobs must be"),
            (["sweep", "--stub", "nope", "--", "true"], 1, "no stub named"),
            (["sweep", "--stub", "item", "--", "no-such-command-for-a-sweep"], 64, "cannot start the command"),
        ])
        func whatCannotRun_isRefused(_ arguments: [String], status: Int32, message: String) async throws {
            let fixtures = try TemporaryFixtures(["api/stubs.json": Self.stubs])
            defer { fixtures.remove() }
            let result = try await CLIRunner.run(
                [arguments[0], "--fixtures", fixtures.root.path] + arguments.dropFirst())
            #expect(result.status == status)
            #expect(result.stderr.contains(message), "\(result.stderr)")
        }
    }
#endif

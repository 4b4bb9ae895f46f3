#if os(macOS) || os(Linux)
    import Foundation
    import StubTestSupport
    import TestTurns
    import Testing

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// `stub-server coverage` over what real `serve` processes recorded in one folder at once, as a run's parallel
    /// processes do: every answer arrives once, and the report and the gate read them.
    @Suite(.takesTurns(.heavy), .timeLimit(.minutes(1)))
    struct CoverageCommandTests {
        static let albums = "/api/v1/us/apple-music/top-albums/all/100/explicit.json"

        /// Two servers recording in `folder`, each sent `count` requests (good, then the bad variant), then stopped.
        static func serve(into folder: URL, count: Int) async throws {
            let children = try (0..<2).map { _ in
                try RunningServer(
                    ["serve", "--fixtures", "MockData", "--port", "0"],
                    environment: ["STUB_COVERAGE_DIR": folder.path])
            }
            for child in children {
                let first = try #require(await child.nextLine())
                let base = try #require(first.components(separatedBy: " at ").last.flatMap(URL.init(string:)))
                for index in 0..<count {
                    var request = URLRequest(url: base.appendingPathComponent(albums), timeoutInterval: 60)
                    if index % 2 == 1 { request.setValue("bad", forHTTPHeaderField: "X-Stub-Variant") }
                    _ = try await URLSession.bounded().data(for: request)
                }
            }
            for child in children { #expect(await child.stop().status == 0) }
        }

        @Test func parallelServers_recordEveryAnswerOnce_andTheReportAndGateReadThem() async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coverage-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            try await Self.serve(into: folder, count: 20)
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
                $0.hasSuffix(".jsonl")
            }
            #expect(files.count == 2)
            let lines = try files.flatMap { file in
                try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8).split(separator: "\n")
            }
            #expect(lines.count == 40)

            let text = try await CLIRunner.run(["coverage", "MockData", "--from", folder.path])
            #expect(text.status == 0, "\(text.stderr)")
            #expect(text.stdout.contains("top-albums: 40 requests; +good +bad -nil"), "\(text.stdout)")

            let gated = try await CLIRunner.run(
                ["coverage", "MockData", "--from", folder.path, "--require", "variants=nil", "--require", "stubs"])
            #expect(gated.status == 1)
            #expect(gated.stderr.contains("coverage: top-albums: variant nil was not served"), "\(gated.stderr)")
            #expect(gated.stderr.contains("coverage: stub desserts (mealdb) was never requested"), "\(gated.stderr)")

            let report = folder.appendingPathComponent("report.json")
            let json = try await CLIRunner.run(
                ["coverage", "MockData", "--from", folder.path, "--format", "json", "--output", report.path])
            #expect(json.status == 0, "\(json.stderr)")
            #expect(json.stdout.hasPrefix("stubs requested 1/"), "\(json.stdout)")
            let object = try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any]
            #expect(object?["version"] as? Int == 1)

        }

        /// Each format from the command line, with the OpenAPI statuses: of an empty folder, every cell unserved.
        @Test(arguments: [
            ("markdown", "| chatCompletion | ❌ 200"), ("html", "<!doctype html>"),
            ("junit", #"<testcase classname="top-albums" name="good">"#),
        ])
        func eachFormat_isWritten(_ format: String, _ expected: String) async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coverage-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let result = try await CLIRunner.run(
                [
                    "coverage", "MockData", "--from", folder.path, "--openapi", "MockData/openapi.yaml", "--format",
                    format,
                ])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains(expected), "\(format): \(result.stdout.prefix(600))")
        }

        @Test(arguments: [
            (["coverage", "MockData"], 64, "coverage needs --from DIR"),
            (["coverage", "--from", "x"], 64, "coverage needs the FIXTURES folder"),
            (["coverage", "MockData", "--from", "/nonexistent-coverage"], 1, "cannot read the coverage folder"),
            (["coverage", "MockData", "--from", "/tmp", "--require", "most"], 1, "--require most: expected stubs"),
            (["coverage", "MockData", "--from", "/tmp", "--format", "pdf"], 64, "pdf"),
        ])
        func badInput_isSaidSo(arguments: [String], status: Int32, message: String) async throws {
            let result = try await CLIRunner.run(arguments)
            #expect(result.status == status)
            #expect(result.stderr.contains(message), "\(result.stderr)")
        }
    }
#endif

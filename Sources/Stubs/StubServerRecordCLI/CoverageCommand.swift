import CLISupport
import Foundation
import StubContracts
import StubCoverage
import StubServer

/// `stub-server coverage FIXTURES --from DIR [--xunit FILE]... [--openapi SPEC] [--format F] [--output FILE]
/// [--require RULE]... [--exceptions FILE] [--ignore-tests NAME]... [--accept-no-result NAME]...`
struct CoverageCommand: Command, Equatable {
    static let name = "coverage"
    var fixtures = ""
    var from = ""
    var xUnit: [String] = []
    var openAPI: String?
    var format = Format.text
    var output: String?
    var require: [String] = []
    var exceptions: String?
    var ignoredTests: [String] = []
    var acceptedWithoutResult: [String] = []

    enum Format: String, CaseIterable {
        case text, json, markdown, html, junit
    }

    static let usage = """
        Usage: stub-server coverage FIXTURES --from DIR [--xunit FILE]... [--openapi SPEC] [--format FORMAT]
                                    [--output FILE] [--require RULE]... [--exceptions FILE] [--ignore-tests NAME]...
                                    [--accept-no-result NAME]...

        Reports which answers of FIXTURES a test run served: per stub, each declared variant served or not and by
        which tests; the mutants served and what they answered; with --openapi, each declared response status of
        every operation exercised or not; the requests no stub matched. DIR is the coverage folder the servers
        recorded in (STUB_COVERAGE_DIR, or a configuration's coverage folder). With --xunit (as `swift test
        --xunit-output` writes; XCTest's file only with --parallel), an answer served only to failing tests does not
        count, nor one served only to tests the files do not name: those are shown as "no result", and --require
        fails on each. Results are per test function: one failing case of a parameterised test fails all its answers.

        Options:
          --from DIR        The coverage folder (its served-*.jsonl files)
          --xunit FILE      Test results (repeatable: Swift Testing's and XCTest's files)
          --openapi SPEC    An OpenAPI document whose operations' statuses are counted
          --format FORMAT   text (default), json, markdown, html or junit
          --output FILE     Write the report there (default: standard output)
          --require RULE    Exit 1, naming each gap, unless the run covers RULE: stubs (every stub requested),
                            variants (every variant served), variants=bad,nil (those of every stub), variants>=N
                            (percent), statuses, statuses>=N (repeatable)
          --exceptions FILE Entries the gate does not hold against the run, each with its reason (default:
                            FIXTURES/coverage-exceptions.json when there): {"exceptions": [{"stub": "search",
                            "variant": "slow", "reason": "..."}]}
          --ignore-tests NAME  Leave out what tests whose names start with NAME were served (Module.Suite/ or
                            Module.): tests of the server itself that serve every variant by construction (repeatable)
          --accept-no-result NAME  Count tests whose names start with NAME as passing though the results do not
                            name them (tests run in processes of their own, say) (repeatable)
          -h, --help        Show this help
        """

    static func parse(_ reader: inout OptionReader) throws(UsageError) -> CoverageCommand {
        var command = CoverageCommand()
        while let argument = reader.next() {
            switch argument {
            case .option("--from"): command.from = try reader.value()
            case .option("--xunit"): command.xUnit.append(try reader.value())
            case .option("--openapi"): command.openAPI = try reader.value()
            case .option("--format"):
                command.format = try reader.value(
                    Format.allCases.map(\.rawValue).joined(separator: ", "), Format.init(rawValue:))
            case .option("--output"): command.output = try reader.value()
            case .option("--require"): command.require.append(try reader.value())
            case .option("--exceptions"): command.exceptions = try reader.value()
            case .option("--ignore-tests"): command.ignoredTests.append(try reader.value())
            case .option("--accept-no-result"): command.acceptedWithoutResult.append(try reader.value())
            case .operand(let folder) where command.fixtures.isEmpty: command.fixtures = folder
            case .option, .operand: throw reader.unknown()
            }
        }
        guard !command.fixtures.isEmpty else { throw UsageError("coverage needs the FIXTURES folder", command: name) }
        guard !command.from.isEmpty else { throw UsageError("coverage needs --from DIR", command: name) }
        return command
    }

    func run() async -> Int32 {
        let catalog: StubCatalog
        do {
            catalog = try StubCatalog.load(from: URL(fileURLWithPath: fixtures))
        } catch {
            Output.error(
                "stub-server: cannot load fixtures from \(fixtures):\n"
                    + error.problems.map { "  \($0)" }.joined(separator: "\n"))
            return 1
        }
        do {
            let gate = try CoverageGate(require)
            let input = try self.input()
            let report = CoverageReport(catalog: catalog, input: input, operations: try operations())
            let text =
                switch format {
                case .text: report.text
                case .json: report.json
                case .markdown: report.markdown
                case .html: report.html
                case .junit: report.junit
                }
            if let output {
                try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
                Output.line(report.summary)
            } else {
                Output.line(String(text.dropLast()))
            }
            let failures = gate.failures(of: report)
            for failure in failures { Output.error("coverage: \(failure)") }
            return failures.isEmpty ? 0 : 1
        } catch let error as CoverageInputError {
            Output.error("stub-server: \(error)")
            return 1
        } catch {
            Output.error("stub-server: \(error)")
            return 1
        }
    }

    private func input() throws -> CoverageInput {
        var results: [String: Bool] = [:]
        for file in xUnit {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw CoverageInputError("cannot read the test results \(file)")
            }
            results.merge(try CoverageInput.results(xUnit: data, file: file)) { $0 && $1 }
        }
        var exceptions: [CoverageException] = []
        let exceptionsFile = self.exceptions ?? "\(fixtures)/\(CoverageException.fileName)"
        if let data = FileManager.default.contents(atPath: exceptionsFile) {
            exceptions = try CoverageException.load(data, file: exceptionsFile)
        } else if let named = self.exceptions {
            throw CoverageInputError("cannot read the exceptions file \(named)")
        }
        return CoverageInput(
            records: try CoverageInput.records(in: URL(fileURLWithPath: from)), results: results,
            exceptions: exceptions, ignoredTests: ignoredTests, acceptedWithoutResult: acceptedWithoutResult)
    }

    /// Each operation of `--openapi` with its declared statuses.
    private func operations() throws -> [(String, [String])] {
        guard let openAPI else { return [] }
        let document = try OpenAPIDocument.load(URL(fileURLWithPath: openAPI))
        return try document.operations().map { operation in
            (operation.operationId ?? "\(operation.method) \(operation.path)", operation.responses.map(\.status))
        }
    }
}

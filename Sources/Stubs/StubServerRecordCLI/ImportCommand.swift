import CLISupport
import Foundation
import StubServer
import StubServerRecording

/// `stub-server import har FILE [--fixtures DIR] [--api NAME] [--only-host HOST]... [--redact-header NAME]...
/// [--redact-query NAME]...`
struct ImportCommand: Command, Equatable {
    static let name = "import"
    var file: String
    var fixtures = "MockData"
    var api: String?
    var onlyHosts: [String] = []
    var redactHeaders: [String] = []
    var redactQuery: [String] = []

    static let usage = """
        Usage: stub-server import har FILE [--fixtures DIR] [--api NAME] [--only-host HOST]...
                                           [--redact-header NAME]... [--redact-query NAME]...

        Writes the HAR capture's exchanges into DIR as fixtures (one folder per host, or NAME), with the
        recorder's naming, redactions and sequences. A malformed file writes nothing and exits 1.
        """

    static func parse(_ reader: inout OptionReader) throws(UsageError) -> ImportCommand {
        guard reader.next() == .operand("har"), case .operand(let file) = reader.next() else {
            throw UsageError("import takes har FILE", command: name)
        }
        var command = ImportCommand(file: file)
        while let argument = reader.next() {
            switch argument {
            case .option("--fixtures"): command.fixtures = try reader.value()
            case .option("--api"): command.api = try reader.value()
            case .option("--only-host"): command.onlyHosts.append(try reader.value())
            case .option("--redact-header"): command.redactHeaders.append(try reader.value())
            case .option("--redact-query"): command.redactQuery.append(try reader.value())
            case .option, .operand: throw reader.unknown()
            }
        }
        return command
    }

    func run() async -> Int32 {
        guard let data = FileManager.default.contents(atPath: file) else {
            Output.error("stub-server: cannot read \(file)")
            return 1
        }
        let importer = HARImporter(
            fixtures: URL(fileURLWithPath: fixtures), api: api, onlyHosts: onlyHosts,
            redaction: Redaction(headers: redactHeaders, query: redactQuery))
        do {
            for line in try await importer.importHAR(data) { Output.line(line) }
            return 0
        } catch {
            Output.error("stub-server: \(file): \(error) (nothing was written)")
            return 1
        }
    }
}

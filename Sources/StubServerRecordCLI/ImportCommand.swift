import CLISupport
import Foundation
import StubServer
import StubServerRecording

/// `stub-server import har FILE [--fixtures DIR] [--api NAME] [--only-host HOST]... [--redact-header NAME]...
/// [--redact-query NAME]...`
struct ImportCommand: Equatable {
    var file: String
    var fixtures = "MockData"
    var api: String?
    var onlyHosts: [String] = []
    var redactHeaders: [String] = []
    var redactQuery: [String] = []

    static let usage = """
        usage: stub-server import har FILE [--fixtures DIR] [--api NAME] [--only-host HOST]...
                                           [--redact-header NAME]... [--redact-query NAME]...

        Writes the HAR capture's exchanges into DIR as fixtures (one folder per host, or NAME), with the
        recorder's naming, redactions and sequences. A malformed file writes nothing and exits 1.
        """

    static func parse(_ arguments: [String]) throws(UsageMessage) -> ImportCommand {
        var rest = arguments[...]
        guard rest.popFirst() == "import", rest.popFirst() == "har", let file = rest.popFirst(), !file.hasPrefix("--")
        else { throw UsageMessage("usage: stub-server import har FILE") }
        var command = ImportCommand(file: file)
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst(), !value.hasPrefix("--") else {
                throw UsageMessage("\(flag) needs a value")
            }
            switch flag {
            case "--fixtures": command.fixtures = value
            case "--api": command.api = value
            case "--only-host": command.onlyHosts.append(value)
            case "--redact-header": command.redactHeaders.append(value)
            case "--redact-query": command.redactQuery.append(value)
            default: throw UsageMessage("unknown option '\(flag)'")
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

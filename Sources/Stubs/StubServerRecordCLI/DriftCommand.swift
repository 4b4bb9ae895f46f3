import CLISupport
import Foundation
import StubServer
import StubServerRecording

/// `stub-server drift --upstream URL [--fixtures DIR] [--api NAME] [--strict] [--upstream-timeout SECONDS]`
struct DriftCommand: Command, Equatable {
    static let name = "drift"
    var upstream: URL
    var fixtures = "MockData"
    var api: String?
    var strict = false
    var timeoutSeconds = 30

    static let usage = """
        Usage: stub-server drift --upstream URL [--fixtures DIR] [--api NAME] [--strict] [--upstream-timeout SECONDS]

        Replays every stub with a literal path and exact query matchers (or a "replay" example) against the
        upstream and compares its answer with the good variant: status, content type, JSON key paths and their
        types, XML element and attribute paths. Exits 1 when a key the fixture has is gone or changed type
        (with --strict, also when the upstream has new keys), 0 otherwise.
        """

    static func parse(_ reader: inout OptionReader) throws(UsageError) -> DriftCommand {
        var upstream: URL?
        var command = DriftCommand(upstream: URL(fileURLWithPath: "/"))
        while let argument = reader.next() {
            switch argument {
            case .option("--strict"):
                try reader.flag()
                command.strict = true
            case .option("--upstream"):
                upstream =
                    try reader.value("an http:// or https:// URL") { text in
                        URL(string: text).flatMap { url in
                            ["http", "https"].contains(url.scheme ?? "") && url.host != nil ? url : nil
                        }
                    } as URL
            case .option("--fixtures"): command.fixtures = try reader.value()
            case .option("--api"): command.api = try reader.value()
            case .option("--upstream-timeout"):
                command.timeoutSeconds = try reader.value("a whole number of seconds above 0") {
                    Int($0).flatMap { $0 > 0 ? $0 : nil }
                }
            case .option, .operand: throw reader.unknown()
            }
        }
        guard let upstream else { throw UsageError("drift needs --upstream URL", command: name) }
        command.upstream = upstream
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
        let report = await DriftChecker(upstream: upstream, timeout: .seconds(timeoutSeconds)).check(catalog, api: api)
        for difference in report.differences { Output.line(difference.description) }
        for skipped in report.skipped { Output.line("skipped \(skipped)") }
        let breaking = report.differences.filter(\.isBreaking).count
        Output.line(
            "checked \(report.checked.count) stubs against \(upstream): \(breaking) breaking, "
                + "\(report.differences.count - breaking) new, \(report.skipped.count) skipped")
        return report.fails(strict: strict) ? 1 : 0
    }
}

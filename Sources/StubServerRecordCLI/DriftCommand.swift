import CLISupport
import Foundation
import StubServer
import StubServerRecording

/// `stub-server drift --upstream URL [--fixtures DIR] [--api NAME] [--strict] [--upstream-timeout SECONDS]`
struct DriftCommand: Equatable {
    var upstream: URL
    var fixtures = "MockData"
    var api: String?
    var strict = false
    var timeoutSeconds = 30

    static let usage = """
        usage: stub-server drift --upstream URL [--fixtures DIR] [--api NAME] [--strict] [--upstream-timeout SECONDS]

        Replays every stub with a literal path and exact query matchers (or a "replay" example) against the
        upstream and compares its answer with the good variant: status, content type, JSON key paths and their
        types, XML element and attribute paths. Exits 1 when a key the fixture has is gone or changed type
        (with --strict, also when the upstream has new keys), 0 otherwise.
        """

    static func parse(_ arguments: [String]) throws(UsageMessage) -> DriftCommand {
        var rest = arguments.dropFirst()
        var upstream: URL?
        var command = DriftCommand(upstream: URL(fileURLWithPath: "/"))
        while let flag = rest.popFirst() {
            if flag == "--strict" {
                command.strict = true
                continue
            }
            guard let value = rest.popFirst(), !value.hasPrefix("--") else {
                throw UsageMessage("\(flag) needs a value")
            }
            switch flag {
            case "--upstream":
                guard let url = URL(string: value), url.scheme == "http" || url.scheme == "https", url.host != nil
                else {
                    throw UsageMessage("--upstream must be an http:// or https:// URL, not '\(value)'")
                }
                upstream = url
            case "--fixtures": command.fixtures = value
            case "--api": command.api = value
            case "--upstream-timeout":
                guard let seconds = Int(value), seconds > 0 else {
                    throw UsageMessage("--upstream-timeout must be a whole number of seconds above 0")
                }
                command.timeoutSeconds = seconds
            default: throw UsageMessage("unknown option '\(flag)'")
            }
        }
        guard let upstream else { throw UsageMessage("drift needs --upstream URL") }
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

import CLISupport
import StubServer

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The `stub-server` command: parses arguments, runs the command, returns the exit code.
enum StubServerTool {
    static let tool = CommandLineTool(
        name: "stub-server", overview: Help.overview,
        commands: [
            ServeCommand.self, ValidateCommand.self, RoutesCommand.self, MutationsCommand.self, SweepCommand.self,
            ImportOpenAPICommand.self, TrustCommand.self,
        ],
        defaultCommand: ServeCommand.name)

    /// Exit codes: 0 success, 1 failure (bad fixtures, bind error), 64 bad usage.
    static func run(_ arguments: [String]) async -> Int32 {
        if RecordTool.handles(arguments) { return RecordTool.exec(arguments) }
        return await tool.run(arguments)
    }

    /// Loads a folder, printing what is wrong to stderr on failure.
    static func load(_ folder: String) -> StubCatalog? {
        guard (try? FileManager.default.contentsOfDirectory(atPath: folder)) != nil else {
            Output.error(
                "stub-server: fixtures folder '\(folder)' does not exist (run from the package root, or pass --fixtures DIR)"
            )
            return nil
        }
        do {
            return try StubCatalog.load(from: URL(fileURLWithPath: folder))
        } catch {
            Output.error(
                "stub-server: cannot load fixtures from \(folder):\n"
                    + error.problems.map { "  \($0)" }.joined(separator: "\n"))
            return nil
        }
    }
}

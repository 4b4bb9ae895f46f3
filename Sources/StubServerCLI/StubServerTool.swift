import CLISupport
import StubServer

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The `stub-server` command: parses arguments, runs the command, returns the exit code.
enum StubServerTool {
    /// Exit codes: 0 success, 1 failure (bad fixtures, bind error), 64 bad usage.
    static func run(_ arguments: [String]) async -> Int32 {
        if RecordTool.handles(arguments) { return RecordTool.exec(arguments) }
        let command: CLICommand
        do {
            command = try CLICommand.parse(arguments)
        } catch {
            Output.error("stub-server: \(error.message)\n\n\(Help.text(for: error.command))")
            return 64
        }
        switch command {
        case .help(let topic):
            Output.line(Help.text(for: topic))
            return 0
        case .validate(let folder):
            return validate(folder)
        case .routes(let folder):
            guard let catalog = load(folder) else { return 1 }
            Output.line(RouteTable.render(catalog, serverVariant: nil))
            return 0
        case .serve(let options):
            return await ServeCommand(options: options).run()
        }
    }

    private static func validate(_ folder: String) -> Int32 {
        do {
            let catalog = try StubCatalog.load(from: URL(fileURLWithPath: folder))
            Output.line("\(folder): \(catalog.stubs.count) stubs, no problems")
            return 0
        } catch {
            for problem in error.problems { Output.line(problem.description) }
            Output.error(
                "stub-server: \(error.problems.count) problem\(error.problems.count == 1 ? "" : "s") in \(folder)")
            return 1
        }
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

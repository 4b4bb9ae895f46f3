import CLISupport
import StubServer

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `stub-server validate DIR`: every problem of a fixtures folder, with file and key path.
struct ValidateCommand: Command, Equatable {
    static let name = "validate"
    static let usage = Help.validate
    var folder: String

    static func parse(_ reader: inout OptionReader) throws(UsageError) -> ValidateCommand {
        ValidateCommand(folder: try reader.onlyOperand("fixtures folder"))
    }

    /// Exits 0 for a clean folder, 1 when it has problems.
    func run() async -> Int32 {
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
}

/// `stub-server routes DIR`: the route table of a fixtures folder.
struct RoutesCommand: Command, Equatable {
    static let name = "routes"
    static let usage = Help.routes
    var folder: String

    static func parse(_ reader: inout OptionReader) throws(UsageError) -> RoutesCommand {
        RoutesCommand(folder: try reader.onlyOperand("fixtures folder"))
    }

    func run() async -> Int32 {
        guard let catalog = StubServerTool.load(folder) else { return 1 }
        Output.line(RouteTable.render(catalog, serverVariant: nil))
        return 0
    }
}

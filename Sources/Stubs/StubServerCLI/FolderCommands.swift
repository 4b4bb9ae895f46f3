import CLISupport
import StubContracts
import StubServer

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `stub-server validate DIR [--openapi SPEC]`: every problem of a fixtures folder, with file and key path; then
/// every answer of a stub that stands for an OpenAPI operation checked against the operation's schema.
struct ValidateCommand: Command, Equatable {
    static let name = "validate"
    static let usage = Help.validate
    var folder: String
    var openapi: String?

    static func parse(_ reader: inout OptionReader) throws(UsageError) -> ValidateCommand {
        var folder: String?
        var openapi: String?
        while let argument = reader.next() {
            switch argument {
            case .option("--openapi"): openapi = try reader.value()
            case .operand(let word) where folder == nil: folder = word
            case .option, .operand: throw reader.unknown()
            }
        }
        guard let folder else { throw UsageError("validate takes one fixtures folder", command: name) }
        return ValidateCommand(folder: folder, openapi: openapi)
    }

    /// Exits 0 for a clean folder, 1 when it has problems.
    func run() async -> Int32 {
        let root = URL(fileURLWithPath: folder)
        let catalog: StubCatalog
        do {
            catalog = try StubCatalog.load(from: root)
        } catch {
            for problem in error.problems { Output.line(problem.description) }
            Output.error(
                "stub-server: \(error.problems.count) problem\(error.problems.count == 1 ? "" : "s") in \(folder)")
            return 1
        }
        var validator = FixtureValidator(root: root, spec: openapi.map { URL(fileURLWithPath: $0) })
        let report = validator.validate(catalog)
        for problem in report.problems { Output.line(problem) }
        if openapi != nil, !report.unmatched.isEmpty {
            Output.line("no operation of \(openapi!) for: \(report.unmatched.joined(separator: ", "))")
        }
        let contracts = report.operations > 0 || openapi != nil ? "; OpenAPI: \(report.summary)" : ""
        if report.problems.isEmpty {
            Output.line("\(folder): \(catalog.stubs.count) stubs, no problems\(contracts)")
            return 0
        }
        Output.error("stub-server: \(folder): \(catalog.stubs.count) stubs\(contracts)")
        return 1
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

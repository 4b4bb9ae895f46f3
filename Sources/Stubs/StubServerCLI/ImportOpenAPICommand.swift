import CLISupport
import StubContracts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `stub-server import openapi SPEC [--fixtures DIR] [--api NAME]`: an OpenAPI document's operations as stubs.
/// (`import har` runs in `stub-server-record`.)
struct ImportOpenAPICommand: Command, Equatable {
    static let name = "import"
    static let usage = Help.importOpenAPI
    var spec: String
    var fixtures = "MockData"
    var api: String?

    static func parse(_ reader: inout OptionReader) throws(UsageError) -> ImportOpenAPICommand {
        guard reader.next() == .operand("openapi"), case .operand(let spec) = reader.next() else {
            throw UsageError("import takes openapi SPEC (or har FILE)", command: name)
        }
        var command = ImportOpenAPICommand(spec: spec)
        while let argument = reader.next() {
            switch argument {
            case .option("--fixtures"): command.fixtures = try reader.value()
            case .option("--api"): command.api = try reader.value()
            case .option, .operand: throw reader.unknown()
            }
        }
        return command
    }

    /// Exits 0 with a line per stub written, 1 (writing nothing) when the document cannot be imported.
    func run() async -> Int32 {
        let importer = OpenAPIImporter(
            spec: URL(fileURLWithPath: spec), fixtures: URL(fileURLWithPath: fixtures), api: api)
        do {
            for line in try importer.run() { Output.line(line) }
            return 0
        } catch let error as ContractError {
            Output.error("stub-server: \(spec): \(error) (nothing was written)")
            return 1
        } catch {
            Output.error("stub-server: \(spec): \(error)")
            return 1
        }
    }
}

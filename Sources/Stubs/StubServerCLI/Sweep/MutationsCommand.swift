import CLISupport
import StubCore
import StubMutations
import StubServer

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `stub-server mutations DIR --stub NAME [--variant V] [--json]`: the mutants of a stub's variant, one per line
/// (ID, then what it does, then the IDs of its twins), or as a JSON array of `{"id", "description", "aliases"}`.
struct MutationsCommand: Command, Equatable {
    static let name = "mutations"
    static let usage = Help.mutations
    var folder: String
    var stub: String
    var variant = "good"
    var json = false

    static func parse(_ reader: inout OptionReader) throws(UsageError) -> MutationsCommand {
        var folder: String?
        var stub: String?
        var variant = "good"
        var json = false
        while let argument = reader.next() {
            switch argument {
            case .option("--stub"): stub = try reader.value()
            case .option("--variant"): variant = try reader.value()
            case .option("--json"): json = true
            case .operand(let word) where folder == nil: folder = word
            case .option, .operand: throw reader.unknown()
            }
        }
        guard let folder else { throw UsageError("mutations takes one fixtures folder", command: name) }
        guard let stub else { throw UsageError("mutations needs --stub NAME", command: name) }
        return MutationsCommand(folder: folder, stub: stub, variant: variant, json: json)
    }

    /// Exits 0 with the list, 1 for a folder that does not load or a stub or variant it lacks.
    func run() async -> Int32 {
        guard let catalog = StubServerTool.load(folder) else { return 1 }
        let mutants: [Mutation]
        do {
            mutants = try catalog.existingVariant(variant, ofStub: stub).mutants
        } catch {
            Output.error(error.description)
            return 1
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let listed = mutants.map {
                Listed(id: $0.id, description: $0.description, aliases: $0.aliases.isEmpty ? nil : $0.aliases)
            }
            Output.line(String(decoding: (try? encoder.encode(listed)) ?? Data("[]".utf8), as: UTF8.self))
        } else {
            for mutant in mutants {
                let same = mutant.aliases.isEmpty ? "" : " (the same as \(mutant.aliases.joined(separator: ", ")))"
                Output.line("\(mutant.id)  \(mutant.description)\(same)")
            }
        }
        return 0
    }

    private struct Listed: Encodable {
        var id: String
        var description: String
        /// The IDs of mutants that serve the same answer, listed once under `id`.
        var aliases: [String]?
    }
}

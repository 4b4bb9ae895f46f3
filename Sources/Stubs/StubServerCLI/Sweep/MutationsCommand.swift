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
/// `stub-server mutations --tls [--json]`: the TLS failures a server can present instead, in the same forms.
struct MutationsCommand: Command, Equatable {
    static let name = "mutations"
    static let usage = Help.mutations
    /// What is listed: a stub's mutants, or the TLS failures.
    var subject: Subject
    var json = false

    enum Subject: Equatable {
        case stub(folder: String, stub: String, variant: String)
        case tls
    }

    static func parse(_ reader: inout OptionReader) throws(UsageError) -> MutationsCommand {
        var folder: String?
        var stub: String?
        var variant: String?
        var tls = false
        var json = false
        while let argument = reader.next() {
            switch argument {
            case .option("--stub"): stub = try reader.value()
            case .option("--variant"): variant = try reader.value()
            case .option("--tls"): tls = true
            case .option("--json"): json = true
            case .operand(let word) where folder == nil: folder = word
            case .option, .operand: throw reader.unknown()
            }
        }
        if tls {
            guard folder == nil, stub == nil, variant == nil else {
                throw UsageError(
                    "mutations --tls lists the TLS failures of any server: it takes no folder, --stub or --variant",
                    command: name)
            }
            return MutationsCommand(subject: .tls, json: json)
        }
        guard let folder else { throw UsageError("mutations takes one fixtures folder (or --tls)", command: name) }
        guard let stub else { throw UsageError("mutations needs --stub NAME", command: name) }
        return MutationsCommand(subject: .stub(folder: folder, stub: stub, variant: variant ?? "good"), json: json)
    }

    /// Exits 0 with the list, 1 for a folder that does not load or a stub or variant it lacks.
    func run() async -> Int32 {
        let listed: [Listed]
        switch subject {
        case .tls:
            listed = TLSFailure.allCases.map { Listed(id: $0.id, description: $0.summary, aliases: nil) }
        case .stub(let folder, let stub, let variant):
            guard let catalog = StubServerTool.load(folder) else { return 1 }
            do {
                listed = try catalog.existingVariant(variant, ofStub: stub).mutants.map {
                    Listed(id: $0.id, description: $0.description, aliases: $0.aliases.isEmpty ? nil : $0.aliases)
                }
            } catch {
                Output.error(error.description)
                return 1
            }
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            Output.line(String(decoding: (try? encoder.encode(listed)) ?? Data("[]".utf8), as: UTF8.self))
        } else {
            for mutant in listed {
                let same = mutant.aliases.map { " (the same as \($0.joined(separator: ", ")))" } ?? ""
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

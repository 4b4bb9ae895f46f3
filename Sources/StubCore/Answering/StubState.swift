/// A server's mutable state: the catalog, the variant choices, sequence positions and the journal.
package struct StubState {
    package var catalog: StubCatalog {
        didSet { catalogGeneration += 1 }
    }
    /// Counts catalog replacements: what a transport caches per stub and variant (the socket server's body files)
    /// is good for one generation.
    package private(set) var catalogGeneration = 0
    /// The server-wide variant, nil for none.
    package var serverVariant: String?
    /// Variants chosen at run time per stub name.
    package var stubVariants: [String: String] = [:]
    /// Calls each stub's `sequence` has answered.
    package var sequenceCalls: [String: Int] = [:]
    /// The state of each scenario that has left `start`.
    package var scenarios: [String: String] = [:]
    /// What the last reload did.
    package var lastReload: ReloadReport?
    package var journal: RequestJournal
    /// The seed of `generator`; reset starts its sequence again.
    let seed: UInt64
    /// The chance, 0...1, that a stubbed answer is replaced by a fault (`RandomFaults.chaosKinds`).
    let chaos: Double
    /// Draws for variants' `faults` and for chaos, in the order requests are decided.
    var generator: SeededGenerator

    package init(
        catalog: StubCatalog, serverVariant: String? = nil, journal: RequestJournal, seed: UInt64 = 0, chaos: Double = 0
    ) {
        self.catalog = catalog
        self.serverVariant = serverVariant
        self.journal = journal
        self.seed = seed
        self.chaos = chaos
        generator = SeededGenerator(seed: seed)
    }

    /// Chooses the variant for one call: request header, per-stub choice, sequence, server-wide choice, `good`.
    mutating func chooseVariant(for stub: Stub, requested: String?) -> VariantChoice {
        if let requested {
            return stub.variants[requested] != nil
                ? .chosen(requested, source: .header) : .missing(requested, source: .header)
        }
        if let chosen = stubVariants[stub.name] {
            return stub.variants[chosen] != nil
                ? .chosen(chosen, source: .stub) : .missing(chosen, source: .stub)
        }
        if !stub.sequence.isEmpty {
            let call = sequenceCalls[stub.name, default: 0]
            sequenceCalls[stub.name] = call + 1
            return .chosen(stub.sequence[min(call, stub.sequence.count - 1)], source: .sequence)
        }
        if let serverVariant {
            if stub.variants[serverVariant] != nil { return .chosen(serverVariant, source: .server) }
            return .fallback(serverVariant)
        }
        return .chosen("good", source: .default)
    }

    /// Forgets run-time choices, sequence positions, scenario states and the journal, and starts the random
    /// sequence again from the seed.
    package mutating func reset(serverVariant: String?) {
        self.serverVariant = serverVariant
        stubVariants = [:]
        sequenceCalls = [:]
        scenarios = [:]
        generator = SeededGenerator(seed: seed)
        journal.clear()
    }
}

/// Which variant answers a call, and why.
package enum VariantChoice: Equatable {
    case chosen(String, source: VariantSource)
    /// The server-wide variant, which this stub lacks: answered with `good`, and a header says so.
    case fallback(String)
    /// A request header or per-stub choice named a variant the stub lacks: answered with an error.
    case missing(String, source: VariantSource)
}

/// What chose the variant that answers a call; the `X-Stub-Variant-Source` header carries its raw value.
package enum VariantSource: String, Sendable, Equatable {
    /// The request's `X-Stub-Variant` header.
    case header
    /// The variant chosen for this stub at run time.
    case stub
    /// The next step of the stub's `sequence`.
    case sequence
    /// The server-wide variant.
    case server
    /// `good`, when nothing else chose.
    case `default`
    /// `good` in place of a server-wide variant the stub lacks.
    case fallback

    /// Who asked for a variant, in an error that says the stub lacks it.
    package var asker: String {
        switch self {
        case .header: "the X-Stub-Variant header"
        case .stub: "the per-stub choice"
        case .sequence, .server, .default, .fallback: "the catalog"
        }
    }
}

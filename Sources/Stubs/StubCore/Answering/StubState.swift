/// A server's mutable state: the catalog, the variant choices, sequence positions and the journal.

package import HTTPMessages

package struct StubState {
    package var catalog: StubCatalog {
        didSet {
            catalogGeneration += 1
            resources = resources.compactMapValues { collection in
                // A reload keeps what the app changed, unless the seed itself changed.
                guard let stub = catalog.stubs.first(where: { $0.resource != nil && collection.name == $0.name }),
                    let resource = stub.resource, resource.seed == collection.resource.seed
                else { return nil }
                return ResourceCollection(resource, name: stub.name, items: collection.items)
            }
        }
    }
    /// Each resource stub's items, by stub name: this server's own copy, seeded when first asked for.
    package var resources: [String: ResourceCollection] = [:]
    /// Counts catalog replacements: what a transport caches per stub and variant (the socket server's body files)
    /// is good for one generation.
    package private(set) var catalogGeneration = 0
    /// The server-wide variant, nil for none.
    package var serverVariant: String?
    /// Variants chosen at run time per stub name.
    package var stubVariants: [String: String] = [:]
    /// Mutants chosen at run time per stub name, by ID: each answer of the stub is that mutant of its variant.
    package var stubMutations: [String: String] = [:]
    /// Calls each stub's `sequence` has answered.
    package var sequenceCalls: [String: Int] = [:]
    /// The state of each scenario that has left `start`.
    package var scenarios: [String: String] = [:]
    /// What the stubs answered since the server started (reset and reload keep it): the control page's view of
    /// which variants were served.
    package var served = ServedCounts()
    /// What the last reload did.
    package var lastReload: ReloadReport?
    package var journal: RequestJournal
    /// Checks requests to stubs that stand for an API operation; nil checks nothing.
    package var requestChecker: (any RequestChecker)?
    /// The seed of `generator`; reset starts its sequence again.
    let seed: UInt64
    /// The chance, 0...1, that a stubbed answer is replaced by a fault (`RandomFaults.chaosKinds`).
    package let chaos: Double
    /// Every scenario the catalog's stubs take part in, with its current state.
    package var scenarioStates: [String: String] {
        catalog.scenarios.mapValues { _ in StubScenario.start }.merging(
            scenarios.filter { catalog.scenarios[$0.key] != nil }
        ) { _, current in current }
    }
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
        stubMutations = [:]
        sequenceCalls = [:]
        scenarios = [:]
        resources = [:]
        generator = SeededGenerator(seed: seed)
        journal.clear()
    }

    /// The collection of resource stub `stub`, seeded when first asked for.
    package mutating func collection(of stub: Stub, resource: StubResource) -> ResourceCollection {
        if let existing = resources[stub.name] { return existing }
        let seeded = ResourceCollection(resource, name: stub.name)
        resources[stub.name] = seeded
        return seeded
    }
}

/// Which requests a transport hands to its forwarder (a proxy or recorder) instead of the catalog.
package enum Forwarding {
    case none
    /// Those no stub matches.
    case unmatched
    /// Every request.
    case all
}

extension StubState {
    /// Matches `request`, chooses the variant (moving a sequence on), and records the request in the journal; or
    /// decides it is forwarded, as `forwarding` says.
    /// - Parameter host: the host the request was sent to, for a transport that keeps real hosts (in process),
    ///   checked against stubs' `hosts`; nil (the socket server, whose requests carry its own address) ignores them.
    package mutating func decide(_ request: Request, host: String? = nil, forwarding: Forwarding = .none)
        -> StubDecision
    {
        let match = catalog.match(request, host: host, scenarios: scenarios)
        switch forwarding {
        case .all: return StubDecision(outcome: .forward)
        case .unmatched where !match.isMatched: return StubDecision(outcome: .forward)
        case .none, .unmatched: break
        }
        var decision: StubDecision
        var violations: [String]?
        switch match {
        case .matched(let stub, let pathParameters):
            decision = decideVariant(of: stub, for: request, pathParameters: pathParameters)
            if stub.contract != nil,
                let problems = requestChecker?.problems(
                    of: request, for: stub, pathParameters: pathParameters), !problems.isEmpty
            {
                violations = problems
            }
            if decision.answeringStub != nil, let scenario = stub.scenario, let next = scenario.then {
                scenarios[scenario.name] = next
            }
        case .methodNotAllowed(let allowed):
            decision = StubDecision(outcome: .methodNotAllowed(allowed: allowed), status: 405)
        case .unmatched(let closest):
            decision = StubDecision(outcome: .unmatched(closest: closest), status: 404)
        }
        var closest: [StubMiss]?
        if case .unmatched(let misses) = decision.outcome { closest = misses }
        decision.journalID = journal.record(
            request, stub: decision.stubName, variant: decision.variantName, status: decision.status,
            fault: decision.fault, closest: closest, draw: decision.draw, violations: violations,
            stream: decision.stream)
        if let touch = decision.resource, let id = decision.journalID {
            journal.update(entry: id) { $0.resource = touch }
        }
        decision.contractViolations = violations
        return decision
    }

    private mutating func decideVariant(of stub: Stub, for request: Request, pathParameters: [String: String])
        -> StubDecision
    {
        let (name, source): (String, VariantSource)
        var fallbackFrom: String?
        switch chooseVariant(for: stub, requested: request.headers["X-Stub-Variant"]) {
        case .chosen(let chosen, let chosenSource):
            (name, source) = (chosen, chosenSource)
        case .fallback(let wanted):
            (name, source) = ("good", .fallback)
            fallbackFrom = wanted
        case .missing(let missing, let missingSource):
            return StubDecision(
                outcome: .missingVariant(
                    stub: stub.name, name: missing, source: missingSource, available: stub.variantNames),
                status: 400)
        }
        guard var variant = stub.variants[name] else {
            // Validation guarantees `good` and every sequence entry; a stub built otherwise says so.
            return StubDecision(
                outcome: .missingVariant(
                    stub: stub.name, name: name, source: source, available: stub.variantNames),
                status: 400)
        }
        let draw = drawTrouble(for: &variant)
        var decision: StubDecision
        if name == "good", let resource = stub.resource {
            // The collection answers in place of the variant's status and body; its pacing and faults hold.
            var collection = collection(of: stub, resource: resource)
            let result = collection.handle(
                request.method, pathParameters["key"].map { .item($0) } ?? .collection,
                query: request.query.map { ($0.name, $0.value) }, body: request.body,
                base: stub.request.path.description)
            resources[stub.name] = collection
            decision = StubDecision(
                outcome: .resource(stub: stub.name, variant: variant, source: source, result: result),
                status: variant.fault == nil ? result.status : nil, fault: variant.fault, fallbackFrom: fallbackFrom,
                draw: draw)
            decision.resource = result.touch
            return decision
        }
        decision = StubDecision(
            outcome: .answer(
                stub: stub.name, variant: variant, name: name, source: source, pathParameters: pathParameters),
            status: variant.fault == nil ? variant.status : nil, fault: variant.fault, fallbackFrom: fallbackFrom,
            draw: draw)
        if variant.events != nil || variant.script != nil {
            decision.status = variant.sendsHead ? variant.answeredStatus : nil
            decision.fault = variant.streamFault ?? variant.fault
            if variant.sendsHead { decision.stream = variant.script != nil ? .webSocket : .events }
        }
        return decision
    }

    /// Applies the variant's random faults and the server's chaos to `variant`. Each draws the same amount from
    /// the generator whatever it picks, so one request's outcome never shifts the draws of the next.
    private mutating func drawTrouble(for variant: inout StubVariant) -> JournalEntry.Draw? {
        guard variant.faults != nil || chaos > 0 else { return nil }
        var draw = JournalEntry.Draw()
        if let faults = variant.faults {
            let (chance, pick, delay) = (generator.unit(), generator.next(), generator.next())
            if let range = faults.delayMs {
                let extra = range.lowerBound + Int(delay % UInt64(range.count))
                variant.delayMs += extra
                draw.delayMs = extra
            }
            if variant.fault == nil, chance < faults.rate, !faults.kinds.isEmpty {
                variant.fault = faults.kinds[Int(pick % UInt64(faults.kinds.count))]
                (draw.fault, draw.source) = (variant.fault, .faults)
            }
        }
        if chaos > 0 {
            let (chance, pick) = (generator.unit(), generator.next())
            let kinds = RandomFaults.chaosKinds
            if variant.fault == nil, chance < chaos {
                variant.fault = kinds[Int(pick % UInt64(kinds.count))]
                (draw.fault, draw.source) = (variant.fault, .chaos)
            }
        }
        return draw
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

import HTTPMessages

/// What the server decided for one request, under one lock: what answers it and what the journal recorded.
package struct StubDecision {
    package var outcome: Outcome
    /// The status recorded and logged; nil for a fault that sends none.
    package var status: Int?
    package var fault: StubVariant.Fault?
    /// The server-wide variant this stub lacks, when `good` answered in its place.
    package var fallbackFrom: String?
    /// What the request drew from the seeded generator, if it drew.
    var draw: JournalEntry.Draw?

    package enum Outcome {
        /// A stub answers with one of its variants.
        case answer(
            stub: String, variant: StubVariant, name: String, source: VariantSource, pathParameters: [String: String])
        /// A request header or per-stub choice named a variant the stub lacks; `available` lists the stub's.
        case missingVariant(stub: String, name: String, source: VariantSource, available: [String])
        /// A stub has the path but not the method.
        case methodNotAllowed(allowed: [String])
        /// No stub matched; the closest ones, field by field.
        case unmatched(closest: [StubMiss])
        /// The configured forwarder answers (and the journal records the request when it has).
        case forward
    }

    package var stubName: String? {
        switch outcome {
        case .answer(let stub, _, _, _, _), .missingVariant(let stub, _, _, _): stub
        case .methodNotAllowed, .unmatched, .forward: nil
        }
    }

    package var variantName: String? {
        if case .answer(_, _, let name, _, _) = outcome { return name }
        return nil
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
    package mutating func decide(_ request: HTTPRequest, forwarding: Forwarding = .none) -> StubDecision {
        let match = catalog.match(request, scenarios: scenarios)
        switch forwarding {
        case .all: return StubDecision(outcome: .forward)
        case .unmatched where !match.isMatched: return StubDecision(outcome: .forward)
        case .none, .unmatched: break
        }
        let decision: StubDecision
        switch match {
        case .matched(let stub, let pathParameters):
            decision = decideVariant(of: stub, for: request, pathParameters: pathParameters)
            if case .answer = decision.outcome, let scenario = stub.scenario, let next = scenario.then {
                scenarios[scenario.name] = next
            }
        case .methodNotAllowed(let allowed):
            decision = StubDecision(outcome: .methodNotAllowed(allowed: allowed), status: 405)
        case .unmatched(let closest):
            decision = StubDecision(outcome: .unmatched(closest: closest), status: 404)
        }
        var closest: [StubMiss]?
        if case .unmatched(let misses) = decision.outcome { closest = misses }
        journal.record(
            request, stub: decision.stubName, variant: decision.variantName, status: decision.status,
            fault: decision.fault, closest: closest, draw: decision.draw)
        return decision
    }

    private mutating func decideVariant(of stub: Stub, for request: HTTPRequest, pathParameters: [String: String])
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
        return StubDecision(
            outcome: .answer(
                stub: stub.name, variant: variant, name: name, source: source, pathParameters: pathParameters),
            status: variant.fault == nil ? variant.status : nil, fault: variant.fault, fallbackFrom: fallbackFrom,
            draw: draw)
    }

    /// Applies the variant's random faults and the server's chaos to `variant`. Each draws the same amount from
    /// the generator whatever it picks, so one request's outcome never shifts the draws of the next.
    private mutating func drawTrouble(for variant: inout StubVariant) -> JournalEntry.Draw? {
        guard variant.faults != nil || chaos > 0 else { return nil }
        var draw = JournalEntry.Draw(outcome: .answer)
        if let faults = variant.faults {
            let (chance, pick, delay) = (generator.unit(), generator.next(), generator.next())
            if let range = faults.delayMs {
                let extra = range.lowerBound + Int(delay % UInt64(range.count))
                variant.delayMs += extra
                draw.delayMs = extra
            }
            if variant.fault == nil, chance < faults.rate, !faults.kinds.isEmpty {
                variant.fault = faults.kinds[Int(pick % UInt64(faults.kinds.count))]
                (draw.outcome, draw.source) = (.fault(variant.fault!), .faults)
            }
        }
        if chaos > 0 {
            let (chance, pick) = (generator.unit(), generator.next())
            let kinds = RandomFaults.chaosKinds
            if variant.fault == nil, chance < chaos {
                variant.fault = kinds[Int(pick % UInt64(kinds.count))]
                (draw.outcome, draw.source) = (.fault(variant.fault!), .chaos)
            }
        }
        return draw
    }
}

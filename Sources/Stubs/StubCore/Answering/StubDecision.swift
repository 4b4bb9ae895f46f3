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
    /// What the stub's API contract refuses in the request (`RequestChecker`); nil when nothing, or nothing checked.
    package var contractViolations: [String]?
    /// The journal entry recorded for the request, for what the transport learns later (`eventsSent`).
    package var journalID: Int?
    /// The kind of stream the answer is, if it is one (set with the variant, so that no one copies it out of
    /// `outcome` per request).
    package var stream: JournalEntry.StreamKind?
    /// What the request did to the collection of a resource stub, when one answered it.
    package var resource: JournalEntry.ResourceTouch?

    package enum Outcome {
        /// A stub answers with one of its variants.
        case answer(
            stub: String, variant: StubVariant, name: String, source: VariantSource, pathParameters: [String: String])
        /// A resource stub's collection answers: `result`'s status and body in place of the `good` variant's (whose
        /// other headers, delay, pacing and faults hold), made for this request.
        case resource(stub: String, variant: StubVariant, source: VariantSource, result: ResourceCollection.Outcome)
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
        case .answer(let stub, _, _, _, _), .resource(let stub, _, _, _), .missingVariant(let stub, _, _, _): stub
        case .methodNotAllowed, .unmatched, .forward: nil
        }
    }

    package var variantName: String? {
        switch outcome {
        case .answer(_, _, let name, _, _): name
        case .resource: "good"
        case .missingVariant, .methodNotAllowed, .unmatched, .forward: nil
        }
    }

    /// The stub that answers with a variant or a resource's collection (what a mutant can be made of); nil for
    /// an error answer, an unmatched request or a forwarded one.
    package var answeringStub: String? {
        switch outcome {
        case .answer(let stub, _, _, _, _), .resource(let stub, _, _, _): stub
        case .missingVariant, .methodNotAllowed, .unmatched, .forward: nil
        }
    }
}

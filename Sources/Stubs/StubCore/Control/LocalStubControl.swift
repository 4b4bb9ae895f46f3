import JSONModel
import Locking

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Stubs whose state lives in this process, in a `StubRuntime`: `StubServer` (over loopback HTTP) and
/// `InProcessStubs` (through `URLProtocol`). Their control is written once, here, over the runtime; each operation
/// answers at once and throws only what it names, so a test calls them without `await`
/// (`try server.setVariant("bad", forStub: "top-albums")`). `RemoteStubs` controls stubs in another process.
public protocol LocalStubControl: StubControl {
    /// The state behind the control.
    var runtime: StubRuntime { get }
}

extension LocalStubControl {
    /// The catalog being served.
    package var catalog: StubCatalog { runtime.catalog }

    /// The server-wide variant, nil when none is chosen.
    public var serverVariant: String? { runtime.state.withLock { $0.serverVariant } }

    /// Chooses the variant every stub answers with, unless a request, stub choice or sequence says otherwise.
    /// - Parameter variant: the variant name, or nil to clear the choice.
    /// - Throws: `StubServerError.variantNowhere` when no stub has that variant.
    public func setVariant(_ variant: String?) throws(StubServerError) {
        try runtime.state.withLock { (state: inout StubState) throws(StubServerError) in
            if let variant, !state.catalog.stubs.contains(where: { $0.variants[variant] != nil }) {
                throw .variantNowhere(variant)
            }
            state.serverVariant = variant
        }
    }

    /// Chooses the variant one stub answers with, ahead of its sequence and the server-wide choice.
    /// - Parameters:
    ///   - variant: the variant name, or nil to clear the choice.
    ///   - stub: the stub's name.
    /// - Throws: `StubServerError` when the stub or the variant does not exist.
    public func setVariant(_ variant: String?, forStub stub: String) throws(StubServerError) {
        try runtime.state.withLock { (state: inout StubState) throws(StubServerError) in
            if let variant {
                _ = try state.catalog.existingVariant(variant, ofStub: stub)
            } else {
                _ = try state.catalog.existingStub(stub)
            }
            state.stubVariants[stub] = variant
        }
    }

    /// The variant chosen at run time for `stub`, if any.
    public func variant(forStub stub: String) -> String? {
        runtime.state.withLock { $0.stubVariants[stub] }
    }

    /// Answers every request to `stub` with its mutant `mutation` of the variant it would give (nil: unmutated).
    /// - Throws: `StubServerError.unknownStub`, or `.unknownMutant` for an ID no variant of the stub has.
    public func setMutation(_ mutation: String?, forStub stub: String) throws(StubServerError) {
        let found = try runtime.state.withLock { $0.catalog }.existingStub(stub)
        if let mutation, !found.variants.values.contains(where: \.template) {
            // An ID no variant has is refused now, as the header refuses it, not on every later request. (A
            // template's mutants are made of its rendered answer, so its IDs are not known before one.) Listed
            // outside the lock: a large body's mutants take a moment to list the first time.
            let ids = found.variants.values.flatMap { $0.mutants.flatMap { [$0.id] + $0.aliases } }
            guard ids.contains(mutation) else {
                throw .unknownMutant(
                    mutation, stub: stub, closest: StubAnswer.closest(to: mutation, among: Array(Set(ids))))
            }
        }
        try runtime.state.withLock { (state: inout StubState) throws(StubServerError) in
            _ = try state.catalog.existingStub(stub)
            state.stubMutations[stub] = mutation
        }
    }

    /// The mutant chosen at run time for `stub`, if any.
    public func mutation(forStub stub: String) -> String? {
        runtime.state.withLock { $0.stubMutations[stub] }
    }

    /// The items of resource stub `name` as this server holds them: a JSON array.
    /// - Throws: `StubServerError.unknownStub` or `.notAResource`.
    public func items(ofResource name: String) throws(StubServerError) -> Data {
        try runtime.state.withLock { (state: inout StubState) throws(StubServerError) in
            let (stub, resource) = try state.catalog.existingResource(name)
            return Data(JSONValue.array(state.collection(of: stub, resource: resource).items).jsonText.utf8)
        }
    }

    /// Replaces the items of resource stub `name` with `items`, a JSON array of objects, each with its key.
    /// - Throws: `StubServerError.unknownStub`, `.notAResource`, or `.invalidItems`.
    public func setItems(_ items: Data, ofResource name: String) throws(StubServerError) {
        guard case .array(let values)? = try? JSONDecoder().decode(JSONValue.self, from: items) else {
            throw .invalidItems(resource: name, reason: "the items must be a JSON array of objects")
        }
        try runtime.state.withLock { (state: inout StubState) throws(StubServerError) in
            let (stub, resource) = try state.catalog.existingResource(name)
            var collection = state.collection(of: stub, resource: resource)
            do {
                try collection.replaceAll(with: values)
            } catch {
                throw .invalidItems(resource: name, reason: "\(error)")
            }
            state.resources[name] = collection
        }
    }

    /// Every scenario the catalog's stubs take part in, with its current state.
    public var scenarios: [String: String] { runtime.read(\.scenarioStates) }

    /// Moves scenario `name` to `newState`, as if a stub had answered.
    /// - Throws: `StubServerError.unknownScenario` or `.unknownScenarioState` (states are `start` and those the
    ///   stubs name).
    public func setScenario(_ name: String, to newState: String) throws(StubServerError) {
        try runtime.state.withLock { (state: inout StubState) throws(StubServerError) in
            let known = state.catalog.scenarios
            guard let states = known[name] else { throw .unknownScenario(name, known: known.keys.sorted()) }
            guard states.contains(newState) else {
                throw .unknownScenarioState(newState, scenario: name, states: states)
            }
            state.scenarios[name] = newState
        }
    }

    /// Returns scenario `name` to `start`, or every scenario when `name` is nil.
    /// - Throws: `StubServerError.unknownScenario` for a name no stub uses.
    public func resetScenario(_ name: String? = nil) throws(StubServerError) {
        try runtime.state.withLock { (state: inout StubState) throws(StubServerError) in
            guard let name else {
                state.scenarios = [:]
                return
            }
            let known = state.catalog.scenarios
            guard known[name] != nil else { throw .unknownScenario(name, known: known.keys.sorted()) }
            state.scenarios[name] = nil
        }
    }

    /// The journal's entries that match `query`, oldest first.
    public func journal(_ query: JournalQuery = JournalQuery()) -> [JournalEntry] {
        runtime.state.withLock { $0.journal.entries(matching: query) }
    }

    /// How many journal entries match `query`.
    public func requestCount(_ query: JournalQuery = JournalQuery()) -> Int {
        journal(query).count
    }

    /// The requests no stub matched, oldest first.
    public func unmatchedRequests() -> [JournalEntry] {
        journal(JournalQuery(unmatchedOnly: true))
    }

    /// Empties the journal.
    public func clearJournal() {
        runtime.state.withLock { $0.journal.clear() }
    }

    /// Forgets run-time variant choices, sequence positions, scenario states, resources' items and the journal;
    /// the server-wide variant returns to the configured one.
    public func reset() {
        runtime.state.withLock { $0.reset(serverVariant: runtime.startVariant) }
    }

    /// Loads the catalog's folder again; on failure the current catalog stays in service.
    /// - Returns: what the reload did (also `lastReload`).
    /// - Throws: `CatalogError` for invalid fixtures, `StubServerError.notReloadable` for a catalog built in code.
    @discardableResult
    public func reload() throws -> ReloadReport {
        try reload(changed: [])
    }

    /// Loads the catalog's folder again after `changed` files changed (none: asked for), records the outcome as
    /// `lastReload` and reports it to the runtime's `onReload`; on failure the current catalog stays in service.
    @discardableResult
    package func reload(changed: [String]) throws -> ReloadReport {
        guard let root = catalog.root else { throw StubServerError.notReloadable }
        let report: ReloadReport
        let fresh: StubCatalog
        do {
            fresh = try StubCatalog.load(from: root)
        } catch {
            report = runtime.state.withLock { state in
                let failed = ReloadReport(
                    time: Date(), succeeded: false, stubs: state.catalog.stubs.count, problems: error.problems,
                    changed: changed)
                state.lastReload = failed
                return failed
            }
            runtime.onReload?(report)
            throw error
        }
        report = runtime.state.withLock { state in
            state.catalog = fresh
            state.sequenceCalls = [:]
            let done = ReloadReport(time: Date(), succeeded: true, stubs: fresh.stubs.count, changed: changed)
            state.lastReload = done
            return done
        }
        runtime.onReload?(report)
        return report
    }

    /// What the last reload did, nil before the first.
    public var lastReload: ReloadReport? { runtime.state.withLock { $0.lastReload } }
}

import Locking

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The state of one running stub server behind a lock, and the control API over it: what `StubServer` and
/// `InProcessStubs` both hold, so the two transports decide and are steered alike.
package final class StubRuntime: Sendable {
    package let state: Lock<StubState>
    /// The server-wide variant at start, which `reset()` returns to.
    private let startVariant: String?
    private let onReload: (@Sendable (ReloadReport) -> Void)?

    package init(
        catalog: StubCatalog, variant: String?, journal: RequestJournal, seed: UInt64, chaos: Double,
        onReload: (@Sendable (ReloadReport) -> Void)?
    ) {
        startVariant = variant
        self.onReload = onReload
        state = Lock(
            StubState(
                catalog: catalog, serverVariant: variant, journal: journal, seed: seed, chaos: min(max(chaos, 0), 1)))
    }

    /// Notes in the journal how many events the stream answering entry `entry` sent, once it has ended.
    package func noteEventsSent(_ count: Int, entry: Int) {
        state.withLock { $0.journal.noteEventsSent(count, entry: entry) }
    }

    /// Installs what checks requests to stubs that stand for an API operation (nil for nothing).
    package func install(_ checker: (any RequestChecker)?) {
        state.withLock { $0.requestChecker = checker }
    }

    package var catalog: StubCatalog {
        state.withLock { $0.catalog }
    }

    package var serverVariant: String? {
        state.withLock { $0.serverVariant }
    }

    package func setVariant(_ variant: String?) throws(StubServerError) {
        try state.withLock { (state: inout StubState) throws(StubServerError) in
            if let variant, !state.catalog.stubs.contains(where: { $0.variants[variant] != nil }) {
                throw .variantNowhere(variant)
            }
            state.serverVariant = variant
        }
    }

    package func setVariant(_ variant: String?, forStub stub: String) throws(StubServerError) {
        try state.withLock { (state: inout StubState) throws(StubServerError) in
            guard let found = state.catalog.stub(named: stub) else {
                throw .unknownStub(stub, known: state.catalog.stubs.map(\.name))
            }
            if let variant, found.variants[variant] == nil {
                throw .unknownVariant(variant, stub: stub, available: found.variantNames)
            }
            state.stubVariants[stub] = variant
        }
    }

    package func variant(forStub stub: String) -> String? {
        state.withLock { $0.stubVariants[stub] }
    }

    package var scenarios: [String: String] {
        state.withLock { state in
            state.catalog.scenarios.mapValues { _ in StubScenario.start }.merging(
                state.scenarios.filter { state.catalog.scenarios[$0.key] != nil }
            ) { _, current in current }
        }
    }

    /// - Throws: `StubServerError.unknownScenario` or `.unknownScenarioState` (states are `start` and those the
    ///   stubs name).
    package func setScenario(_ name: String, to newState: String) throws(StubServerError) {
        try state.withLock { (state: inout StubState) throws(StubServerError) in
            let known = state.catalog.scenarios
            guard let states = known[name] else { throw .unknownScenario(name, known: known.keys.sorted()) }
            guard states.contains(newState) else {
                throw .unknownScenarioState(newState, scenario: name, states: states)
            }
            state.scenarios[name] = newState
        }
    }

    /// - Throws: `StubServerError.unknownScenario` for a name no stub uses.
    package func resetScenario(_ name: String?) throws(StubServerError) {
        try state.withLock { (state: inout StubState) throws(StubServerError) in
            guard let name else {
                state.scenarios = [:]
                return
            }
            let known = state.catalog.scenarios
            guard known[name] != nil else { throw .unknownScenario(name, known: known.keys.sorted()) }
            state.scenarios[name] = nil
        }
    }

    package func journal(_ query: JournalQuery) -> [JournalEntry] {
        state.withLock { $0.journal.entries(matching: query) }
    }

    package func clearJournal() {
        state.withLock { $0.journal.clear() }
    }

    package func reset() {
        state.withLock { $0.reset(serverVariant: startVariant) }
    }

    package var lastReload: ReloadReport? {
        state.withLock { $0.lastReload }
    }

    /// Loads the catalog's folder again after `changed` files changed (none: asked for), records the outcome as
    /// `lastReload` and reports it to `onReload`; on failure the current catalog stays in service.
    /// - Throws: `CatalogError` for invalid fixtures, `StubServerError.notReloadable` for a catalog built in code.
    @discardableResult
    package func reload(changed: [String] = []) throws -> StubCatalog {
        guard let root = catalog.root else { throw StubServerError.notReloadable }
        let report: ReloadReport
        let fresh: StubCatalog
        do {
            fresh = try StubCatalog.load(from: root)
        } catch {
            report = state.withLock { state in
                state.lastReload = ReloadReport(
                    time: Date(), succeeded: false, stubs: state.catalog.stubs.count, problems: error.problems,
                    changed: changed)
                return state.lastReload!
            }
            onReload?(report)
            throw error
        }
        report = state.withLock { state in
            state.catalog = fresh
            state.sequenceCalls = [:]
            state.lastReload = ReloadReport(time: Date(), succeeded: true, stubs: fresh.stubs.count, changed: changed)
            return state.lastReload!
        }
        onReload?(report)
        return fresh
    }
}

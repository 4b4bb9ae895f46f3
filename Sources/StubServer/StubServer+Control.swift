import HTTPEngine
import StubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension StubServer {
    /// The catalog being served.
    public var catalog: StubCatalog {
        state.withLock { $0.catalog }
    }

    /// The server-wide variant, nil when none is chosen.
    public var serverVariant: String? {
        state.withLock { $0.serverVariant }
    }

    /// Chooses the variant every stub answers with, unless a request, stub choice or sequence says otherwise.
    /// - Parameter variant: the variant name, or nil to clear the choice.
    /// - Throws: `StubServerError.variantNowhere` when no stub has that variant.
    public func setVariant(_ variant: String?) throws(StubServerError) {
        try state.withLock { (state: inout StubState) throws(StubServerError) in
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

    /// The variant chosen at run time for `stub`, if any.
    public func variant(forStub stub: String) -> String? {
        state.withLock { $0.stubVariants[stub] }
    }

    /// The journal's entries that match `query`, oldest first.
    public func journal(_ query: JournalQuery = JournalQuery()) -> [JournalEntry] {
        state.withLock { $0.journal.entries(matching: query) }
    }

    /// How many journal entries match `query`.
    public func requestCount(_ query: JournalQuery = JournalQuery()) -> Int {
        journal(query).count
    }

    /// The requests no stub matched, oldest first.
    public func unmatchedRequests() -> [JournalEntry] {
        journal(JournalQuery(unmatchedOnly: true))
    }

    public func clearJournal() {
        state.withLock { $0.journal.clear() }
    }

    /// Forgets run-time variant choices, sequence positions and the journal; the server-wide variant returns to
    /// the configured one.
    public func reset() {
        state.withLock { $0.reset(serverVariant: configuration.variant) }
    }

    /// Loads the catalog's folder again; on failure the current catalog stays in service.
    /// - Returns: the new catalog.
    /// - Throws: `CatalogError` for invalid fixtures, `StubServerError.notReloadable` for a catalog built in code.
    @discardableResult
    public func reload() throws -> StubCatalog {
        try reload(changed: [])
    }

    /// What the last reload did, nil before the first.
    public var lastReload: ReloadReport? {
        state.withLock { $0.lastReload }
    }

    /// Reloads after `changed` files changed, records the outcome as `lastReload` and reports it to the
    /// configuration's `onReload`.
    @discardableResult
    func reload(changed: [String]) throws -> StubCatalog {
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
            configuration.onReload?(report)
            throw error
        }
        report = state.withLock { state in
            state.catalog = fresh
            state.sequenceCalls = [:]
            state.lastReload = ReloadReport(time: Date(), succeeded: true, stubs: fresh.stubs.count, changed: changed)
            return state.lastReload!
        }
        configuration.onReload?(report)
        return fresh
    }

    /// The environment an app under test reads the server's address from: `[key: baseURL]`, for
    /// `XCUIApplication.launchEnvironment` or `Process.environment`.
    public func launchEnvironment(key: String = "STUB_SERVER_URL") -> [String: String] {
        [key: baseURL.absoluteString]
    }
}

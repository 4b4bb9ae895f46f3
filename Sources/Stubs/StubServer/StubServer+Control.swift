import StubCore

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension StubServer: StubControl {
    /// The catalog being served.
    public var catalog: StubCatalog { runtime.catalog }

    /// The server-wide variant, nil when none is chosen.
    public var serverVariant: String? { runtime.serverVariant }

    /// Chooses the variant every stub answers with, unless a request, stub choice or sequence says otherwise.
    /// - Parameter variant: the variant name, or nil to clear the choice.
    /// - Throws: `StubServerError.variantNowhere` when no stub has that variant.
    public func setVariant(_ variant: String?) throws(StubServerError) {
        try runtime.setVariant(variant)
    }

    /// Chooses the variant one stub answers with, ahead of its sequence and the server-wide choice.
    /// - Parameters:
    ///   - variant: the variant name, or nil to clear the choice.
    ///   - stub: the stub's name.
    /// - Throws: `StubServerError` when the stub or the variant does not exist.
    public func setVariant(_ variant: String?, forStub stub: String) throws(StubServerError) {
        try runtime.setVariant(variant, forStub: stub)
    }

    /// The variant chosen at run time for `stub`, if any.
    public func variant(forStub stub: String) -> String? {
        runtime.variant(forStub: stub)
    }

    /// Answers every request to `stub` with its mutant `mutation` of the variant it would give (nil: unmutated).
    /// - Throws: `StubServerError.unknownStub`.
    public func setMutation(_ mutation: String?, forStub stub: String) throws(StubServerError) {
        try runtime.setMutation(mutation, forStub: stub)
    }

    /// The items of resource stub `name` as this server holds them: a JSON array.
    /// - Throws: `StubServerError.unknownStub` or `.notAResource`.
    public func items(ofResource name: String) throws(StubServerError) -> Data {
        try runtime.items(ofResource: name)
    }

    /// Replaces the items of resource stub `name` with `items`, a JSON array of objects, each with its key.
    /// - Throws: `StubServerError.unknownStub`, `.notAResource`, or `.invalidItems`.
    public func setItems(_ items: Data, ofResource name: String) throws(StubServerError) {
        try runtime.setItems(items, ofResource: name)
    }

    /// The mutant chosen at run time for `stub`, if any.
    public func mutation(forStub stub: String) -> String? {
        runtime.mutation(forStub: stub)
    }

    /// Every scenario the catalog's stubs take part in, with its current state.
    public var scenarios: [String: String] { runtime.scenarios }

    /// Moves scenario `name` to `newState`, as if a stub had answered.
    /// - Throws: `StubServerError.unknownScenario` or `.unknownScenarioState` (states are `start` and those the
    ///   stubs name).
    public func setScenario(_ name: String, to newState: String) throws(StubServerError) {
        try runtime.setScenario(name, to: newState)
    }

    /// Returns scenario `name` to `start`, or every scenario when `name` is nil.
    /// - Throws: `StubServerError.unknownScenario` for a name no stub uses.
    public func resetScenario(_ name: String? = nil) throws(StubServerError) {
        try runtime.resetScenario(name)
    }

    /// The journal's entries that match `query`, oldest first.
    public func journal(_ query: JournalQuery = JournalQuery()) -> [JournalEntry] {
        runtime.journal(query)
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
        runtime.clearJournal()
    }

    /// Forgets run-time variant choices, sequence positions, scenario states and the journal; the server-wide
    /// variant returns to the configured one.
    public func reset() {
        runtime.reset()
    }

    /// Loads the catalog's folder again; on failure the current catalog stays in service.
    /// - Returns: what the reload did (also `lastReload`).
    /// - Throws: `CatalogError` for invalid fixtures, `StubServerError.notReloadable` for a catalog built in code.
    @discardableResult
    public func reload() throws -> ReloadReport {
        try runtime.reload()
    }

    /// What the last reload did, nil before the first.
    public var lastReload: ReloadReport? { runtime.lastReload }

    /// The environment an app under test reads the server's address from: `[key: baseURL]`, for
    /// `XCUIApplication.launchEnvironment` or `Process.environment`.
    public func launchEnvironment(key: String = "STUB_SERVER_URL") -> [String: String] {
        [key: baseURL.absoluteString]
    }
}

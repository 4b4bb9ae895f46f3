#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// What a test does with running stubs, wherever they answer: `StubServer` over loopback HTTP, `InProcessStubs`
/// through `URLProtocol`, `RemoteStubs` for a server or an app in another process (through its admin API). The
/// testing helpers (`expectRequests`, `XCTAssertRequested`) take any of them.
///
/// Every requirement is `async` and throws `StubServerError` because a remote control crosses a process; the local
/// types answer at once and throw only what the requirement names (`StubServer.setVariant(_:)` is synchronous).
public protocol StubControl: AnyObject, Sendable {
    /// The server-wide variant, nil when none is chosen.
    var serverVariant: String? { get async throws(StubServerError) }
    /// Chooses the variant every stub answers with, unless a request, stub choice or sequence says otherwise.
    /// - Throws: `StubServerError.variantNowhere` when no stub has that variant.
    func setVariant(_ variant: String?) async throws(StubServerError)
    /// Chooses the variant one stub answers with, ahead of its sequence and the server-wide choice.
    /// - Throws: `StubServerError` when the stub or the variant does not exist.
    func setVariant(_ variant: String?, forStub stub: String) async throws(StubServerError)
    /// The variant chosen at run time for `stub`, if any.
    func variant(forStub stub: String) async throws(StubServerError) -> String?
    /// Answers every request to `stub` with the mutant `mutation` (an ID `stub-server mutations` lists, such as
    /// `feed.results[*].name:null`) of the variant it would give; nil answers unmutated. A request's own
    /// `X-Stub-Mutation` header wins; an ID the variant has no mutant of is answered `400`, naming the nearest.
    /// - Throws: `StubServerError.unknownStub`, or `.unknownMutant` for an ID no variant of the stub has.
    func setMutation(_ mutation: String?, forStub stub: String) async throws(StubServerError)
    /// The mutant chosen at run time for `stub`, if any.
    func mutation(forStub stub: String) async throws(StubServerError) -> String?
    /// The items of resource stub `name` (a stub with a `resource` key) as this server holds them: a JSON array.
    /// - Throws: `StubServerError.unknownStub` or `.notAResource`.
    func items(ofResource name: String) async throws(StubServerError) -> Data
    /// Replaces the items of resource stub `name` with `items`, a JSON array of objects, each with its key; `reset()`
    /// puts the seed back.
    /// - Throws: `StubServerError.unknownStub`, `.notAResource`, or `.invalidItems` naming the item and field.
    func setItems(_ items: Data, ofResource name: String) async throws(StubServerError)
    /// Every scenario the catalog's stubs take part in, with its current state.
    var scenarios: [String: String] { get async throws(StubServerError) }
    /// Moves scenario `name` to `newState`, as if a stub had answered.
    func setScenario(_ name: String, to newState: String) async throws(StubServerError)
    /// The journal's entries that match `query`, oldest first.
    func journal(_ query: JournalQuery) async throws(StubServerError) -> [JournalEntry]
    /// How many journal entries match `query`.
    func requestCount(_ query: JournalQuery) async throws(StubServerError) -> Int
    /// The requests no stub matched, oldest first.
    func unmatchedRequests() async throws(StubServerError) -> [JournalEntry]
    /// Empties the journal.
    func clearJournal() async throws(StubServerError)
    /// Forgets run-time variant choices, sequence positions, scenario states and the journal.
    func reset() async throws(StubServerError)
    /// Loads the catalog's folder again; on failure the current catalog stays in service.
    /// - Returns: what the reload did.
    /// - Throws: `CatalogError` for invalid fixtures (with file and key path), `StubServerError` otherwise.
    @discardableResult func reload() async throws -> ReloadReport
    /// Stops answering (a remote control only lets go of its connection: the other process goes on).
    func stop() async
}

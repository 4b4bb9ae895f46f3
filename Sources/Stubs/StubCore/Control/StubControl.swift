/// What a test does with a running stub server, whichever way its answers travel: `StubServer` over loopback
/// HTTP, `InProcessStubs` through `URLProtocol`. The testing helpers (`expectRequests`, `XCTAssertRequested`)
/// take either.
public protocol StubControl: AnyObject, Sendable {
    /// The catalog being served.
    var catalog: StubCatalog { get }
    /// The server-wide variant, nil when none is chosen.
    var serverVariant: String? { get }
    /// Chooses the variant every stub answers with, unless a request, stub choice or sequence says otherwise.
    /// - Throws: `StubServerError.variantNowhere` when no stub has that variant.
    func setVariant(_ variant: String?) throws(StubServerError)
    /// Chooses the variant one stub answers with, ahead of its sequence and the server-wide choice.
    /// - Throws: `StubServerError` when the stub or the variant does not exist.
    func setVariant(_ variant: String?, forStub stub: String) throws(StubServerError)
    /// The variant chosen at run time for `stub`, if any.
    func variant(forStub stub: String) -> String?
    /// Answers every request to `stub` with the mutant `mutation` (an ID `stub-server mutations` lists, such as
    /// `feed.results[*].name:null`) of the variant it would give; nil answers unmutated. A request's own
    /// `X-Stub-Mutation` header wins; an ID the variant has no mutant of is answered `400`, naming the nearest.
    /// - Throws: `StubServerError.unknownStub`.
    func setMutation(_ mutation: String?, forStub stub: String) throws(StubServerError)
    /// The mutant chosen at run time for `stub`, if any.
    func mutation(forStub stub: String) -> String?
    /// Every scenario the catalog's stubs take part in, with its current state.
    var scenarios: [String: String] { get }
    /// Moves scenario `name` to `newState`, as if a stub had answered.
    func setScenario(_ name: String, to newState: String) throws(StubServerError)
    /// The journal's entries that match `query`, oldest first.
    func journal(_ query: JournalQuery) -> [JournalEntry]
    /// How many journal entries match `query`.
    func requestCount(_ query: JournalQuery) -> Int
    /// The requests no stub matched, oldest first.
    func unmatchedRequests() -> [JournalEntry]
    /// Empties the journal.
    func clearJournal()
    /// Forgets run-time variant choices, sequence positions, scenario states and the journal.
    func reset()
    /// Loads the catalog's folder again; on failure the current catalog stays in service.
    @discardableResult func reload() throws -> StubCatalog
    /// Stops answering.
    func stop() async
}

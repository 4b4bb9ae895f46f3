package import HTTPMessages
import JSONModel
import Locking

#if canImport(FoundationEssentials)
    package import FoundationEssentials
#else
    package import Foundation
#endif

/// The state of one running stub server behind a lock, and the control API over it: what `StubServer` and
/// `InProcessStubs` both hold, so the two transports decide and are steered alike.
package final class StubRuntime: Sendable {
    private let state: Lock<StubState>
    /// The server-wide variant at start, which `reset()` returns to.
    private let startVariant: String?
    private let onReload: (@Sendable (ReloadReport) -> Void)?
    /// The seed of the random faults and chaos: the configured one, or the one picked at start.
    package let seed: UInt64

    /// How a runtime starts: what both transports' configurations hold under the same names.
    package struct Settings {
        package var variant: String?
        package var journalCapacity: Int
        package var redaction: Redaction
        /// Nil picks one at random.
        package var seed: UInt64?
        /// Clamped to 0...1.
        package var chaos: Double
        package var onReload: (@Sendable (ReloadReport) -> Void)?

        package init(
            variant: String?, journalCapacity: Int, redaction: Redaction, seed: UInt64?, chaos: Double,
            onReload: (@Sendable (ReloadReport) -> Void)?
        ) {
            self.variant = variant
            self.journalCapacity = journalCapacity
            self.redaction = redaction
            self.seed = seed
            self.chaos = chaos
            self.onReload = onReload
        }
    }

    package init(catalog: StubCatalog, _ settings: Settings) {
        startVariant = settings.variant
        onReload = settings.onReload
        let seed = settings.seed ?? UInt64.random(in: 0...UInt64.max)
        self.seed = seed
        state = Lock(
            StubState(
                catalog: catalog, serverVariant: settings.variant,
                journal: RequestJournal(capacity: settings.journalCapacity, redaction: settings.redaction), seed: seed,
                chaos: min(max(settings.chaos, 0), 1)))
    }

    /// Notes in the journal how many events the stream answering entry `entry` sent, once it has ended.
    package func noteEventsSent(_ count: Int, entry: Int) {
        state.withLock { $0.journal.noteEventsSent(count, entry: entry) }
    }

    /// Reads the state under the lock: for views of it (the admin API's stub list) that need several fields at once.
    package func read<T>(_ body: (StubState) -> T) -> T {
        state.withLock { body($0) }
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
            if let variant {
                _ = try state.catalog.variant(variant, ofStub: stub)
            } else {
                _ = try state.catalog.existingStub(stub)
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
    package func reload(changed: [String] = []) throws -> ReloadReport {
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
        return report
    }
}

extension StubRuntime {
    // The one way a request goes through the core (StubExchange), and what transports report afterwards.

    /// Decides `request` under the lock (moving sequences on and recording it in the journal, or leaving it to the
    /// forwarder, as `forwarding` says), then renders the answer outside it.
    /// - Parameters:
    ///   - host: the host the request was sent to, for a transport that keeps real hosts (in process); nil ignores
    ///     stubs' `hosts`.
    ///   - baseURL: the server's URL as the client reached it, asked for only by templates.
    package func exchange(
        _ request: Request, host: String? = nil, forwarding: Forwarding = .none,
        baseURL: @autoclosure () -> String
    ) -> StubExchange {
        let (decision, generation, mutation) = state.withLock { state in
            let decision = state.decide(request, host: host, forwarding: forwarding)
            var mutation: String?
            if let stub = decision.answeringStub {
                mutation = request.headers[Self.mutationHeader] ?? state.stubMutations[stub]
            }
            return (decision, state.catalogGeneration, mutation)
        }
        var answer = decision.answer(to: request, baseURL: baseURL())
        if let mutation, let unmutated = answer {
            answer = mutated(unmutated, mutation, of: decision)
        }
        return StubExchange(
            decision: decision, answer: answer, catalogGeneration: generation, mutation: mutation, runtime: self)
    }

    /// The request header that asks for one mutant of the answer the request would get.
    package static let mutationHeader = "X-Stub-Mutation"

    /// `answer`'s mutant `id`, journaled with its status and fault; a 400 naming the nearest IDs when there is none.
    private func mutated(_ answer: StubAnswer, _ id: String, of decision: StubDecision) -> StubAnswer {
        let result: StubAnswer
        do {
            result = try answer.mutated(id)
        } catch {
            var body = "\(error.message)"
            if !error.closest.isEmpty { body += "; closest: \(error.closest.joined(separator: ", "))" }
            result = .error(.badRequest, body, headers: HTTPHeaders([("X-Stub-Name", decision.stubName ?? "")]))
        }
        if let entry = decision.journalID {
            updateEntry(entry) { entry in
                entry.mutation = id
                (entry.status, entry.fault) = (result.sentStatus, result.fault)
            }
        }
        return result
    }

    /// Answers every request to `stub` with its mutant `mutation` of the variant it would give (nil: unmutated).
    /// - Throws: `StubServerError.unknownStub`.
    package func setMutation(_ mutation: String?, forStub stub: String) throws(StubServerError) {
        try state.withLock { (state: inout StubState) throws(StubServerError) in
            _ = try state.catalog.existingStub(stub)
            state.stubMutations[stub] = mutation
        }
    }

    package func mutation(forStub stub: String) -> String? {
        state.withLock { $0.stubMutations[stub] }
    }

    /// The items of resource stub `name`, as a JSON array.
    package func items(ofResource name: String) throws(StubServerError) -> Data {
        try state.withLock { (state: inout StubState) throws(StubServerError) in
            let (stub, resource) = try state.catalog.existingResource(name)
            return Data(JSONValue.array(state.collection(of: stub, resource: resource).items).jsonText.utf8)
        }
    }

    /// Replaces the items of resource stub `name` with `items`, a JSON array of objects, each keyed.
    package func setItems(_ items: Data, ofResource name: String) throws(StubServerError) {
        guard case .array(let values)? = try? JSONDecoder().decode(JSONValue.self, from: items) else {
            throw .invalidItems(resource: name, reason: "the items must be a JSON array of objects")
        }
        try state.withLock { (state: inout StubState) throws(StubServerError) in
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

    /// Records a request the forwarder answered with `status`, naming the forwarder by `label`.
    package func recordForwarded(_ request: Request, status: Int, label: String) {
        state.withLock {
            _ = $0.journal.record(request, stub: nil, variant: nil, status: status, fault: nil, forwarded: label)
        }
    }

    /// Changes journal entry `id`, if it is still kept: what a transport learns after the answer went out.
    package func updateEntry(_ id: Int, _ change: (inout JournalEntry) -> Void) {
        state.withLock { $0.journal.update(entry: id, change) }
    }
}

package import HTTPMessages
import JSONModel
package import Locking

#if canImport(FoundationEssentials)
    package import FoundationEssentials
#else
    package import Foundation
#endif

/// The state of one running set of stubs behind a lock: what `StubServer` and `InProcessStubs` both hold, so the two
/// transports decide alike (`exchange`) and are steered by one control (`LocalStubControl`).
public final class StubRuntime: Sendable {
    package let state: Lock<StubState>
    /// The server-wide variant at start, which `reset()` returns to.
    package let startVariant: String?
    package let onReload: (@Sendable (ReloadReport) -> Void)?
    /// The seed of the random faults and chaos: the configured one, or the one picked at start.
    package let seed: UInt64
    /// Where each answer is recorded for the coverage report (`CoverageSink`), if anywhere.
    package let coverage: CoverageSink?
    /// How the transport is named in coverage records: `socket`, `in process`.
    package let transport: String
    /// The test whose answers these are, for the coverage records: set by the trait or starter that started them.
    private let coverageTest = Lock<String?>(nil)

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
        /// The coverage folder; nil records in `STUB_COVERAGE_DIR`'s, when set.
        package var coverage: URL?
        package var transport: String

        package init(
            variant: String?, journalCapacity: Int, redaction: Redaction, seed: UInt64?, chaos: Double,
            onReload: (@Sendable (ReloadReport) -> Void)?, coverage: URL?, transport: String
        ) {
            self.coverage = coverage
            self.transport = transport
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
        coverage = CoverageSink.sink(folder: settings.coverage)
        transport = settings.transport
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

    /// The catalog being served.
    package var catalog: StubCatalog {
        state.withLock { $0.catalog }
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
        let (decision, generation, mutation, (operation, fixtures)) = state.withLock { state in
            let decision = state.decide(request, host: host, forwarding: forwarding)
            var mutation: String?
            if let stub = decision.answeringStub {
                mutation = request.headers[Self.mutationHeader] ?? state.stubMutations[stub]
                if mutation == nil { state.served.count(stub, variant: decision.variantName) }
            }
            // The stub's API operation, only for a coverage record.
            let operation =
                coverage == nil
                ? nil : decision.stubName.flatMap { state.catalog.stub(named: $0)?.contract }.map { "\($0.operation)" }
            return (
                decision, state.catalogGeneration, mutation,
                (operation, coverage == nil ? nil : state.catalog.root?.path)
            )
        }
        var answer = decision.answer(to: request, baseURL: baseURL(), forMutation: mutation != nil)
        if let mutation, let unmutated = answer {
            answer = mutated(unmutated, mutation, of: decision)
        }
        let exchange = StubExchange(
            decision: decision, answer: answer, catalogGeneration: generation, mutation: mutation, runtime: self)
        if let coverage, answer != nil {
            coverage.append(record(of: exchange, request, operation: operation, fixtures: fixtures))
        }
        return exchange
    }

    /// Names the test these stubs answer for in their coverage records (nil: none).
    package func recordCoverage(as test: String?) {
        coverageTest.withLock { $0 = test }
    }

    /// Records for the coverage report that a connection met `failure` before it could send a request.
    package func recordTLSFailure(_ failure: TLSFailure) {
        guard let coverage else { return }
        let fixtures = state.withLock { $0.catalog.root?.path }
        coverage.append(
            CoverageRecord(
                test: coverageTest.withLock { $0 }, transport: transport, fixtures: fixtures, stub: nil, variant: nil,
                mutation: nil, status: nil, fault: nil, operation: nil, change: nil, method: "", path: "",
                tlsFailure: failure.id))
    }

    /// The coverage record of `exchange`.
    private func record(
        of exchange: StubExchange, _ request: Request, operation: String?, fixtures: String?
    ) -> CoverageRecord {
        let decision = exchange.decision
        return CoverageRecord(
            test: coverageTest.withLock { $0 }, transport: transport, fixtures: fixtures, stub: decision.stubName,
            variant: decision.variantName, mutation: exchange.mutation, status: exchange.status,
            fault: exchange.fault?.rawValue, operation: operation, change: decision.resource?.change.rawValue,
            method: request.method, path: request.path)
    }

    /// The request header that asks for one mutant of the answer the request would get.
    package static let mutationHeader = "X-Stub-Mutation"

    /// `answer`'s mutant `id`, journaled with its status and fault; a 400 naming the nearest IDs when there is none.
    private func mutated(_ answer: StubAnswer, _ id: String, of decision: StubDecision) -> StubAnswer {
        let result: StubAnswer
        do {
            result = try answer.mutated(id)
            if let stub = decision.answeringStub { state.withLock { $0.served.countMutant(of: stub) } }
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

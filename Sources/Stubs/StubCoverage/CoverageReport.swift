package import StubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Which answers of an API a test run served, and to which tests: per stub, each declared variant served or not;
/// the mutants served and what they answered; per OpenAPI operation, each declared status exercised or not; the
/// requests no stub matched. `stub-server coverage` prints it (text, JSON, Markdown, HTML, JUnit) and gates on it.
package struct CoverageReport: Encodable, Sendable {
    /// The JSON form's version.
    package var version = 1
    package var stubs: [StubCoverage]
    package var operations: [OperationCoverage]
    package var unmatched: [UnmatchedRequest]
    package var totals: Totals
    /// The tests served answers of this folder that the given results do not name: their answers do not count.
    package var testsWithoutResult: [String]
    /// Every TLS failure, with the connections that met it, when a server of this folder presented any; else empty.
    package var tlsFailures: [TLSFailureCoverage]

    package struct StubCoverage: Encodable, Sendable {
        package var name: String
        package var api: String
        /// Requests it answered, to any test.
        package var requests: Int
        package var variants: [VariantCoverage]
        /// The mutants served, by ID, with how often each outcome (a status or a fault) came of them.
        package var mutants: MutantCoverage?
        /// Why the whole stub is not held against the run, when the exceptions say so.
        package var exception: String?
    }

    package struct VariantCoverage: Encodable, Sendable {
        package var name: String
        /// Whether a test that passed (or a request outside any test) was served it.
        package var served: Bool
        /// The passing tests served it, by coverage name; `(no test)` for requests outside a test.
        package var tests: [String]
        /// The failing tests served it: they do not count.
        package var failingTests: [String]
        /// The tests served it that the results do not name: they do not count either.
        package var noResultTests: [String]
        /// Why it is not held against the run, when the exceptions say so.
        package var exception: String?
    }

    package struct MutantCoverage: Encodable, Sendable {
        package var served: Int
        package var outcomes: [String: Int]
    }

    package struct TLSFailureCoverage: Encodable, Sendable {
        /// Its ID, as `--tls-failure` takes it: `expired`.
        package var failure: String
        /// Connections that met it, in any test.
        package var connections: Int
        /// Whether a test that passed (or a connection outside any test) met it.
        package var served: Bool
        package var tests: [String]
        package var failingTests: [String]
        package var noResultTests: [String]
    }

    package struct OperationCoverage: Encodable, Sendable {
        /// `operationId`, or `METHOD /path`.
        package var operation: String
        package var statuses: [StatusCoverage]
    }

    package struct StatusCoverage: Encodable, Sendable {
        /// As declared: `200`, `4XX`, `default`.
        package var status: String
        package var exercised: Bool
    }

    package struct UnmatchedRequest: Encodable, Sendable {
        package var method: String
        package var path: String
        package var count: Int
    }

    package struct Totals: Encodable, Sendable {
        package var stubs: Int
        package var stubsRequested: Int
        package var variants: Int
        /// Served to a passing test (or outside any test).
        package var variantsServed: Int
        /// Served, or excepted.
        package var variantsCovered: Int
        package var statuses: Int
        package var statusesExercised: Int

        /// `part` of `whole` as a percentage with one decimal; 100 when there is nothing to cover.
        package static func percent(_ part: Int, of whole: Int) -> Double {
            whole == 0 ? 100 : (Double(part) * 1000 / Double(whole)).rounded() / 10
        }
    }

    /// The report of `input`'s records of `catalog`'s folder against `catalog`, and of `operations` (each `operationId` or `METHOD /path` with its
    /// declared statuses) when an OpenAPI document was given.
    package init(catalog: StubCatalog, input: CoverageInput, operations declared: [(String, [String])] = []) {
        let noTest = "(no test)"
        var byStub: [String: [CoverageRecord]] = [:]
        var unmatched: [String: UnmatchedRequest] = [:]
        // Only this folder's records: a run's other servers serve folders of their own.
        var canonical: [String: String] = [:]
        let root = catalog.root.map { $0.resolvingSymlinksInPath().standardizedFileURL.path }
        let records = input.records.filter { record in
            guard let fixtures = record.fixtures, !input.ignores(record.test) else { return false }
            if canonical[fixtures] == nil {
                canonical[fixtures] = URL(fileURLWithPath: fixtures).resolvingSymlinksInPath().standardizedFileURL.path
            }
            return canonical[fixtures] == root
        }
        for record in records where record.tlsFailure == nil {
            if let stub = record.stub {
                byStub[stub, default: []].append(record)
            } else {
                unmatched[
                    "\(record.method) \(record.path)",
                    default: UnmatchedRequest(
                        method: record.method, path: record.path, count: 0)
                ].count += 1
            }
        }
        stubs = catalog.stubs.map { stub in
            let records = byStub[stub.name] ?? []
            let excepted = input.exceptions.first { $0.stub == stub.name && $0.variant == nil }?.reason
            let variants = stub.variantNames.map { variant in
                let served = records.filter { $0.variant == variant && $0.mutation == nil }
                let passing = Set(served.filter { input.counts($0.test) }.map { $0.test ?? noTest })
                let failing = Set(served.filter { input.outcome($0.test) == .failed }.compactMap(\.test))
                let noResult = Set(served.filter { input.outcome($0.test) == .noResult }.compactMap(\.test))
                let exception =
                    input.exceptions.first { $0.stub == stub.name && $0.variant == variant }?.reason ?? excepted
                return VariantCoverage(
                    name: variant, served: !passing.isEmpty, tests: passing.sorted(), failingTests: failing.sorted(),
                    noResultTests: noResult.sorted(), exception: exception)
            }
            let mutated = records.filter { $0.mutation != nil }
            var outcomes: [String: Int] = [:]
            for record in mutated {
                outcomes[record.fault ?? record.status.map(String.init) ?? "none", default: 0] += 1
            }
            return StubCoverage(
                name: stub.name, api: stub.api, requests: records.count, variants: variants,
                mutants: mutated.isEmpty
                    ? nil : MutantCoverage(served: Set(mutated.compactMap(\.mutation)).count, outcomes: outcomes),
                exception: excepted)
        }
        operations = declared.map { operation, statuses in
            let sent = Set(records.filter { $0.operation == operation }.compactMap(\.status))
            let explicit = Set(statuses.compactMap(Int.init))
            return OperationCoverage(
                operation: operation,
                statuses: statuses.map { status in
                    let exercised =
                        if let code = Int(status) {
                            sent.contains(code)
                        } else if status.count == 3, status.hasSuffix("XX"), let digit = status.first?.wholeNumberValue
                        {
                            sent.contains { $0 / 100 == digit && !explicit.contains($0) }
                        } else {
                            // `default`: any status the operation does not declare otherwise.
                            sent.contains { !explicit.contains($0) }
                        }
                    return StatusCoverage(status: status, exercised: exercised)
                })
        }
        let metTLS = records.filter { $0.tlsFailure != nil }
        tlsFailures =
            metTLS.isEmpty
            ? []
            : TLSFailure.allCases.map { failure in
                let met = metTLS.filter { $0.tlsFailure == failure.id }
                let passing = Set(met.filter { input.counts($0.test) }.map { $0.test ?? noTest })
                return TLSFailureCoverage(
                    failure: failure.id, connections: met.count, served: !passing.isEmpty, tests: passing.sorted(),
                    failingTests: Set(met.filter { input.outcome($0.test) == .failed }.compactMap(\.test)).sorted(),
                    noResultTests: Set(met.filter { input.outcome($0.test) == .noResult }.compactMap(\.test)).sorted())
            }
        self.unmatched = unmatched.values.sorted { ($0.path, $0.method) < ($1.path, $1.method) }
        testsWithoutResult = Set(records.filter { input.outcome($0.test) == .noResult }.compactMap(\.test)).sorted()
        let cells = stubs.flatMap(\.variants)
        let statusCells = operations.flatMap(\.statuses)
        totals = Totals(
            stubs: stubs.count, stubsRequested: stubs.filter { $0.requests > 0 }.count, variants: cells.count,
            variantsServed: cells.filter(\.served).count,
            variantsCovered: cells.filter { $0.served || $0.exception != nil }.count, statuses: statusCells.count,
            statusesExercised: statusCells.filter(\.exercised).count)
    }
}

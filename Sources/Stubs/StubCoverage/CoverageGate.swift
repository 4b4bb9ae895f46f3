/// What a run must cover, from `--require` rules; `failures(of:)` names each gap.
///
/// - `stubs`: every stub requested;
/// - `variants=bad,nil`: those variants of every stub that declares them served;
/// - `variants` (every declared variant) and `variants>=N` (at least N percent of them);
/// - `statuses` (every declared response status of every OpenAPI operation) and `statuses>=N`.
///
/// An exception (`coverage-exceptions.json`) covers its stub or variant; the report shows its reason. Whatever the
/// rules, a test that was served answers and that the given results do not name is a gap: what it proved is unknown.
package struct CoverageGate: Sendable, Equatable {
    package enum Rule: Sendable, Equatable {
        case everyStub
        case variants([String]?)
        case variantPercent(Double)
        case everyStatus
        case statusPercent(Double)
    }

    package var rules: [Rule]

    /// Reads `--require` rules.
    /// - Throws: `CoverageInputError` naming the rule it cannot read and the rules there are.
    package init(_ texts: [String]) throws(CoverageInputError) {
        rules = try texts.map { text throws(CoverageInputError) in
            switch text {
            case "stubs": return .everyStub
            case "variants": return .variants(nil)
            case "statuses": return .everyStatus
            default: break
            }
            if text.hasPrefix("variants="), case let names = text.dropFirst("variants=".count).split(separator: ","),
                !names.isEmpty
            {
                return .variants(names.map(String.init))
            }
            for (prefix, make) in [("variants>=", Rule.variantPercent), ("statuses>=", Rule.statusPercent)]
            where text.hasPrefix(prefix) {
                if let percent = Double(text.dropFirst(prefix.count)), (0...100).contains(percent) {
                    return make(percent)
                }
            }
            throw CoverageInputError(
                "--require \(text): expected stubs, variants, variants=NAME,NAME, variants>=PERCENT, statuses or "
                    + "statuses>=PERCENT")
        }
    }

    /// Each gap `report` has against the rules, as a line that names it; empty when the run covers them.
    package func failures(of report: CoverageReport) -> [String] {
        var failures: [String] = []
        if !rules.isEmpty {
            for test in report.testsWithoutResult {
                failures.append(
                    "\(test) was served answers but has no result in the results files (XCTest writes its xUnit file "
                        + "only with `swift test --parallel`); --accept-no-result \(test) counts it as passing")
            }
        }
        let totals = report.totals
        for rule in rules {
            switch rule {
            case .everyStub:
                for stub in report.stubs where stub.requests == 0 && stub.exception == nil {
                    failures.append("stub \(stub.name) (\(stub.api)) was never requested")
                }
            case .variants(let names):
                for stub in report.stubs {
                    for variant in stub.variants
                    where (names?.contains(variant.name) ?? true) && !variant.served && variant.exception == nil {
                        let failing =
                            variant.failingTests.isEmpty
                            ? "" : " (only by failing tests: \(variant.failingTests.joined(separator: ", ")))"
                        let unknown =
                            variant.noResultTests.isEmpty
                            ? "" : " (to tests with no result: \(variant.noResultTests.joined(separator: ", ")))"
                        failures.append("\(stub.name): variant \(variant.name) was not served\(failing)\(unknown)")
                    }
                }
            case .variantPercent(let minimum):
                let percent = CoverageReport.Totals.percent(totals.variantsCovered, of: totals.variants)
                if percent < minimum {
                    failures.append(
                        "variants covered: \(percent)% (\(totals.variantsCovered) of \(totals.variants)), "
                            + "below \(minimum)%")
                }
            case .everyStatus:
                for operation in report.operations {
                    for status in operation.statuses where !status.exercised {
                        failures.append("\(operation.operation): status \(status.status) was never answered")
                    }
                }
            case .statusPercent(let minimum):
                let percent = CoverageReport.Totals.percent(totals.statusesExercised, of: totals.statuses)
                if percent < minimum {
                    failures.append(
                        "statuses exercised: \(percent)% (\(totals.statusesExercised) of \(totals.statuses)), "
                            + "below \(minimum)%")
                }
            }
        }
        return failures
    }
}

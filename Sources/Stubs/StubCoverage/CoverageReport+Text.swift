import Foundation

extension CoverageReport {
    /// The terminal summary: totals, then each stub's variants (`+` served, `-` not, `~` excepted, `?` served only
    /// to tests with no result), mutants, operations, the TLS failures met, unmatched requests and the tests with no
    /// result.
    package var text: String {
        var lines = [summary]
        for stub in stubs {
            let cells = stub.variants.map { variant in
                (variant.served
                    ? "+" : variant.exception != nil ? "~" : variant.noResultTests.isEmpty ? "-" : "?") + variant.name
            }
            var line = "\(stub.name): \(stub.requests) requests; \(cells.joined(separator: " "))"
            if let mutants = stub.mutants { line += "; \(mutants.served) mutants (\(Self.outcomes(mutants)))" }
            lines.append(line)
        }
        for operation in operations {
            let cells = operation.statuses.map { ($0.exercised ? "+" : "-") + $0.status }
            lines.append("\(operation.operation): \(cells.joined(separator: " "))")
        }
        if !tlsFailures.isEmpty {
            let cells = tlsFailures.map { ($0.served ? "+" : $0.noResultTests.isEmpty ? "-" : "?") + $0.failure }
            let connections = tlsFailures.map(\.connections).reduce(0, +)
            lines.append("tls failures: \(connections) connections; \(cells.joined(separator: " "))")
        }
        for request in unmatched { lines.append("unmatched: \(request.method) \(request.path) (\(request.count))") }
        for test in testsWithoutResult { lines.append("no result: \(test) (its answers do not count)") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `stubs requested 9/10 (90.0%), variants served 31/40 (77.5%), statuses 5/8 (62.5%)`.
    package var summary: String {
        let t = totals
        var parts = [
            "stubs requested \(t.stubsRequested)/\(t.stubs) (\(Totals.percent(t.stubsRequested, of: t.stubs))%)",
            "variants covered \(t.variantsCovered)/\(t.variants) (\(Totals.percent(t.variantsCovered, of: t.variants))%: "
                + "\(t.variantsServed) served, \(t.variantsCovered - t.variantsServed) excepted)",
        ]
        if t.statuses > 0 {
            parts.append(
                "statuses \(t.statusesExercised)/\(t.statuses) (\(Totals.percent(t.statusesExercised, of: t.statuses))%)"
            )
        }
        return parts.joined(separator: ", ")
    }

    /// For a CI summary: totals, a table of stubs by variant, operations, unmatched requests and exceptions.
    package var markdown: String {
        var lines = ["## Coverage of failure modes", "", summary, ""]
        let names = Array(Set(stubs.flatMap { $0.variants.map(\.name) })).sorted { Self.order($0) < Self.order($1) }
        lines.append("| stub | requests | " + names.joined(separator: " | ") + " | mutants |")
        lines.append("|---|---:|" + names.map { _ in ":---:" }.joined(separator: "|") + "|---|")
        for stub in stubs {
            let cells = names.map { name -> String in
                guard let variant = stub.variants.first(where: { $0.name == name }) else { return "" }
                if variant.served { return "✅ \(variant.tests.count)" }
                if variant.exception != nil { return "➖" }
                return variant.noResultTests.isEmpty ? "❌" : "❔ no result"
            }
            let mutants = stub.mutants.map { "\($0.served) (\(Self.outcomes($0)))" } ?? ""
            lines.append("| \(stub.name) | \(stub.requests) | " + cells.joined(separator: " | ") + " | \(mutants) |")
        }
        if !operations.isEmpty {
            lines += ["", "| operation | statuses |", "|---|---|"]
            for operation in operations {
                let cells = operation.statuses.map { ($0.exercised ? "✅ " : "❌ ") + $0.status }
                lines.append("| \(operation.operation) | \(cells.joined(separator: " ")) |")
            }
        }
        if !tlsFailures.isEmpty {
            lines += ["", "| TLS failure | connections | met by a passing test |", "|---|---:|:---:|"]
            for failure in tlsFailures {
                let cell =
                    failure.served ? "✅ \(failure.tests.count)" : failure.noResultTests.isEmpty ? "❌" : "❔ no result"
                lines.append("| \(failure.failure) | \(failure.connections) | \(cell) |")
            }
        }
        if !unmatched.isEmpty {
            lines += ["", "Unmatched requests:", ""]
            lines += unmatched.map { "- `\($0.method) \($0.path)` (\($0.count))" }
        }
        let excepted = stubs.flatMap { stub in
            stub.variants.compactMap { variant in variant.exception.map { "- \(stub.name) \(variant.name): \($0)" } }
        }
        if !excepted.isEmpty { lines += ["", "Exceptions:", ""] + excepted }
        if !testsWithoutResult.isEmpty {
            lines += ["", "Served to tests with no result (their answers do not count):", ""]
            lines += testsWithoutResult.map { "- `\($0)`" }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `good`, `bad`, `nil` first, the rest by name.
    static func order(_ name: String) -> (Int, String) {
        (["good", "bad", "nil"].firstIndex(of: name) ?? 3, name)
    }

    static func outcomes(_ mutants: MutantCoverage) -> String {
        mutants.outcomes.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
    }

    /// The report as versioned JSON (Contributing/Coverage.md).
    package var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self) + "\n"
    }
}

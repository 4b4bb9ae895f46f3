#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension StubControl {
    /// Why the journal does not hold exactly `count` requests matching `query`, or nil when it does.
    ///
    /// Reads as `expected 1 GET /search?term=jack+johnson, got 0; closest requests:` followed by up to three
    /// requests that came nearest, each with the fields that differ; the testing modules record it as a failure.
    package func requestCountMismatch(_ query: JournalQuery, count expected: Int) async throws(StubServerError)
        -> String?
    {
        let entries = try await journal(JournalQuery())
        let matching = entries.filter(query.accepts)
        guard matching.count != expected else { return nil }
        var message = "expected \(expected) \(query), got \(matching.count)"
        if matching.count < expected {
            let closest = entries.filter { !query.accepts($0) }
                .map { (entry: $0, mismatches: query.mismatches(of: $0)) }
                .enumerated().sorted {
                    ($0.element.mismatches.count, $0.offset) < ($1.element.mismatches.count, $1.offset)
                }
                .prefix(3).map(\.element)
            if closest.isEmpty {
                message += "; the server received no other request"
            } else {
                message += "; closest requests:"
                for (entry, mismatches) in closest {
                    message += "\n  \(entry.summary): \(mismatches.joined(separator: "; "))"
                }
            }
        } else {
            message += ":" + matching.map { "\n  \($0.summary)" }.joined()
        }
        return message
    }

    /// Why the most recent WebSocket of stub `stub` did not carry exactly `expected`, both ways and in order, or nil
    /// when it did: `stub live-updates: message 2 expected sent "pong", got received "ping"`, then every message.
    package func webSocketMessagesMismatch(stub: String, expected: [JournalEntry.WebSocketRecord])
        async throws(StubServerError) -> String?
    {
        // A socket that opened: a refused handshake carries no messages.
        guard let entry = try await journal(JournalQuery(stub: stub)).last(where: { $0.webSocketMessages != nil })
        else {
            return "stub \(stub) had no WebSocket opened (expected \(expected.count) messages)"
        }
        let actual = entry.webSocketMessages ?? []
        guard actual != expected else { return nil }
        let index =
            zip(actual, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(actual.count, expected.count)
        let got = index < actual.count ? actual[index].description : "nothing more"
        let wanted = index < expected.count ? expected[index].description : "nothing more"
        return "stub \(stub): message \(index + 1) expected \(wanted), got \(got); the socket carried:"
            + (actual.isEmpty ? " nothing" : actual.map { "\n  \($0)" }.joined())
    }

    /// One report per request no stub matched, with the stubs that came closest, field by field; then one per
    /// request that broke its stub's API contract, with each problem.
    package func unmatchedReports() async throws(StubServerError) -> [String] {
        try await unmatchedReportsByEntry().map(\.report)
    }

    /// `unmatchedReports()` with the journal entry each report is about.
    package func unmatchedReportsByEntry() async throws(StubServerError) -> [(entry: Int, report: String)] {
        let unmatched = try await unmatchedRequests().map { entry in
            var report =
                "no stub matched \(entry.method) \(entry.target) (answered \(entry.status.map(String.init) ?? "-"))"
            if let closest = entry.closest, !closest.isEmpty {
                report += "; closest stubs:"
                for miss in closest { report += "\n  \(miss.explanation)" }
            }
            return (entry.id, report)
        }
        let broken = try await journal(JournalQuery()).filter { !($0.contractViolations ?? []).isEmpty }.map { entry in
            (
                entry.id,
                "\(entry.method) \(entry.target) breaks the API contract of stub \(entry.stub ?? "-") (answered "
                    + "\(entry.status.map(String.init) ?? "-")):"
                    + (entry.contractViolations ?? []).map { "\n  \($0)" }.joined()
            )
        }
        return unmatched + broken
    }
}

extension JournalEntry {
    /// Reads as `GET /search?term=a -> search good 200`.
    package var summary: String {
        let outcome = [stub, variant, status.map(String.init), fault.map { "fault \($0)" }].compactMap { $0 }
        return "\(method) \(target) -> \(outcome.isEmpty ? "unanswered" : outcome.joined(separator: " "))"
    }
}

extension StubMiss {
    /// Reads as `search (itunes/stubs.json): query.limit expected matches /^[0-9]+$/, got "ten"`.
    package var explanation: String {
        let fields = mismatches.map { "\($0.field) expected \($0.expected), got \($0.actual.debugDescription)" }
        return "\(stub) (\(file)): \(fields.joined(separator: "; "))"
    }
}

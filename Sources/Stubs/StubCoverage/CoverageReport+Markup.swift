import StubCore

extension CoverageReport {
    /// A page of its own: the totals, a grid of stubs by variant whose cells list their tests, the operations'
    /// statuses, the TLS failures met and the unmatched requests.
    package var html: String {
        let names = Array(Set(stubs.flatMap { $0.variants.map(\.name) })).sorted { Self.order($0) < Self.order($1) }
        var rows: [String] = []
        for stub in stubs {
            var cells = ["<th>\(escape(stub.name))<small>\(stub.requests) requests</small></th>"]
            for name in names {
                guard let variant = stub.variants.first(where: { $0.name == name }) else {
                    cells.append("<td class=\"none\"></td>")
                    continue
                }
                let unknown = !variant.served && variant.exception == nil && !variant.noResultTests.isEmpty
                let kind =
                    variant.served ? "served" : variant.exception != nil ? "excepted" : unknown ? "noresult" : "missing"
                var body =
                    variant.served
                    ? "\(variant.tests.count) test\(variant.tests.count == 1 ? "" : "s")"
                    : variant.exception != nil ? "excepted" : unknown ? "no result" : "not served"
                let listed =
                    variant.tests + variant.failingTests.map { "\($0) (failed)" }
                    + variant.noResultTests.map { "\($0) (no result)" }
                if !listed.isEmpty { body += "<ul>" + listed.map { "<li>\(escape($0))</li>" }.joined() + "</ul>" }
                if let reason = variant.exception { body += "<p>\(escape(reason))</p>" }
                cells.append("<td class=\"\(kind)\">\(body)</td>")
            }
            let mutants = stub.mutants.map { "\($0.served) (\(escape(Self.outcomes($0))))" } ?? ""
            cells.append("<td>\(mutants)</td>")
            rows.append("<tr>" + cells.joined() + "</tr>")
        }
        var page = [
            "<!doctype html>",
            "<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Coverage of failure modes</title>",
            "<style>body{font:14px system-ui,sans-serif;margin:2em}table{border-collapse:collapse}"
                + "td,th{border:1px solid #ccc;padding:.4em;vertical-align:top;text-align:left}"
                + "th small{display:block;font-weight:normal;color:#666}ul{margin:.3em 0;padding-left:1.2em}"
                + ".served{background:#e6f4ea}.missing{background:#fce8e6}.excepted{background:#f1f3f4}"
                + ".noresult{background:#fef7e0}</style>",
            "</head><body>", "<h1>Coverage of failure modes</h1>", "<p>\(escape(summary))</p>",
            "<table><thead><tr><th>stub</th>" + names.map { "<th>\(escape($0))</th>" }.joined()
                + "<th>mutants</th></tr></thead><tbody>",
        ]
        page += rows
        page.append("</tbody></table>")
        if !operations.isEmpty {
            page.append("<h2>Operations</h2><table><tbody>")
            for operation in operations {
                let cells = operation.statuses.map { status in
                    "<td class=\"\(status.exercised ? "served" : "missing")\">\(escape(status.status))</td>"
                }
                page.append("<tr><th>\(escape(operation.operation))</th>" + cells.joined() + "</tr>")
            }
            page.append("</tbody></table>")
        }
        if !tlsFailures.isEmpty {
            page.append("<h2>TLS failures</h2><table><tbody>")
            for failure in tlsFailures {
                let kind = failure.served ? "served" : failure.noResultTests.isEmpty ? "missing" : "noresult"
                let tests = failure.tests.map { "<li><code>\(escape($0))</code></li>" }.joined()
                page.append(
                    "<tr><th>\(escape(failure.failure))</th><td class=\"\(kind)\">\(failure.connections) connections"
                        + "<ul>\(tests)</ul></td></tr>")
            }
            page.append("</tbody></table>")
        }
        if !testsWithoutResult.isEmpty {
            page.append("<h2>Served to tests with no result</h2><p>Their answers do not count.</p><ul>")
            page += testsWithoutResult.map { "<li><code>\(escape($0))</code></li>" }
            page.append("</ul>")
        }
        if !unmatched.isEmpty {
            page.append("<h2>Unmatched requests</h2><ul>")
            page += unmatched.map { "<li><code>\(escape($0.method)) \(escape($0.path))</code> (\($0.count))</li>" }
            page.append("</ul>")
        }
        page.append("</body></html>")
        return page.joined(separator: "\n") + "\n"
    }

    /// One test case per stub variant, failed when not served (an exception is a skipped case with its reason),
    /// for CI dashboards that read JUnit XML.
    package var junit: String {
        let cases = stubs.flatMap { stub in stub.variants.map { (stub, $0) } }
        let failures = cases.filter { !$0.1.served && $0.1.exception == nil }.count
        var lines = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<testsuites><testsuite name=\"coverage of failure modes\" tests=\"\(cases.count)\" failures=\"\(failures)\">",
        ]
        for (stub, variant) in cases {
            let head = "<testcase classname=\"\(escape(stub.name))\" name=\"\(escape(variant.name))\""
            if variant.served {
                lines.append(head + "/>")
            } else if let reason = variant.exception {
                lines.append(head + "><skipped message=\"\(escape(reason))\"/></testcase>")
            } else {
                let failing =
                    variant.failingTests.isEmpty
                    ? "" : " (only by failing tests: \(variant.failingTests.joined(separator: ", ")))"
                let unknown =
                    variant.noResultTests.isEmpty
                    ? "" : " (to tests with no result: \(variant.noResultTests.joined(separator: ", ")))"
                lines.append(head + "><failure message=\"not served\(escape(failing + unknown))\"/></testcase>")
            }
        }
        lines.append("</testsuite></testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }

    private func escape(_ text: String) -> String {
        text.markupEscaped
    }
}

// These tests run the built `stub-server` and curl as processes: compiled only where a test can start one.
#if os(Linux)
    import Foundation
    import StubTestSupport
    import TestTurns
    import Testing

    /// `stub-server sweep --tls`: a client is run against an HTTPS server, then once per TLS failure against a server
    /// that presents it, with the authority's file in its environment. A client that pins the server's key refuses
    /// every failure and passes all nine; one that trusts the authority alone accepts `other-key` and fails there only.
    /// (HTTPS is served through OpenSSL: Linux for now.)
    @Suite(.takesTurns(.heavy), .timeLimit(.minutes(10)))
    struct TLSSweepCommandTests {
        static let stubs = """
            {"stubs": [{"name": "item", "request": {"path": "/item"},
              "variants": {"good": {"body": "{}"}, "bad": {"body": "{"}, "nil": {"body": ""}}}]}
            """

        /// A client that must get the answer without a TLS failure and must be refused with one: exit 0 when it
        /// was. With `pin`, it also checks the server's key.
        static func client(pin: String?) -> String {
            let pinning = pin.map { " --pinnedpubkey '\($0)'" } ?? ""
            return """
                if curl -sS -o /dev/null --max-time 3 --cacert "$STUB_SERVER_AUTHORITY_FILE"\(pinning) \
                "$STUB_SERVER_URL/item"; then test -z "$STUB_MUTATION"; else test -n "$STUB_MUTATION"; fi
                """
        }

        @Test(
            .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")),
            arguments: [true, false])
        func aClientThatPins_refusesEveryFailure_andOneThatDoesNot_acceptsAnotherKey(pins: Bool) async throws {
            let fixtures = try TemporaryFixtures(["api/stubs.json": Self.stubs])
            defer { fixtures.remove() }
            let authority = fixtures.url("authority")
            let trust = try await CLIRunner.run(["trust", "--authority", authority.path])
            let pin = try #require(trust.stdout.split(separator: "\n").last?.trimmingCharacters(in: .whitespaces))
            #expect(pin.hasPrefix("sha256//"))
            let report = fixtures.url("report.json")
            let result = try await CLIRunner.run(
                [
                    "sweep", "--tls", "--fixtures", fixtures.root.path, "--authority", authority.path, "--timeout",
                    "10", "--report", report.path, "--", "sh", "-c", Self.client(pin: pins ? pin : nil),
                ], limit: 300)
            let lines = result.stdout.split(separator: "\n").map(String.init)
            #expect(lines.first?.hasPrefix("baseline  passed") == true, "\(result.stdout)\(result.stderr)")
            let failures = [
                "expired", "not-yet-valid", "wrong-host", "self-signed", "unknown-authority", "other-key",
                "old-protocol", "handshake-reset", "handshake-stall",
            ]
            let outcomes = Dictionary(
                uniqueKeysWithValues: lines.dropFirst().dropLast().map { line in
                    let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
                    return (words[1], words[0])
                })
            #expect(outcomes.keys.sorted() == failures.sorted())
            for failure in failures {
                let expected = !pins && failure == "other-key" ? "failed" : "passed"
                #expect(outcomes[failure] == expected, "\(failure)")
            }
            #expect(
                lines.last == "swept 9 TLS failures: \(pins ? 9 : 8) passed, \(pins ? 0 : 1) failed, 0 crashed, 0 hung")
            #expect(result.status == (pins ? 0 : 1))
            let object = try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any]
            #expect(object?["tls"] as? Bool == true)
            #expect(object?["stub"] == nil)
            let results = object?["results"] as? [[String: Any]] ?? []
            #expect(results.map { $0["mutation"] as? String } == failures)
            #expect(results.allSatisfy { ($0["description"] as? String)?.isEmpty == false })
        }

        @Test(arguments: [
            (["sweep", "--tls", "--stub", "item", "--", "true"], "no --stub or --variant"),
            (["sweep", "--stub", "item", "--authority", "x", "--", "true"], "--authority needs --tls"),
            (["sweep", "--", "true"], "sweep needs --stub NAME (or --tls)"),
            (["sweep", "--tls", "--jobs", "2", "--", "true"], "no --jobs"),
        ])
        func misuse_isRefused(_ arguments: [String], message: String) async throws {
            let result = try await CLIRunner.run(arguments)
            #expect(result.status == 64)
            #expect(result.stderr.contains(message), "\(result.stderr)")
        }
    }
#endif

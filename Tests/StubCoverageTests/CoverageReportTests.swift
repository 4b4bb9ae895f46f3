import Foundation
import StubCore
import StubCoverage
import StubTestSupport
import TestTurns
import Testing

/// The report and the gate from records, test results and exceptions: a planted gap (a variant no passing test
/// was served) is named in every format and fails the gate.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct CoverageReportTests {
    /// Two stubs: `albums` with good, bad, nil and slow; `search` with good, bad, nil.
    static func catalog() throws -> (StubCatalog, TemporaryFixtures) {
        let variants = #""good": {"body": "[]"}, "bad": {"body": "{"}, "nil": {"body": ""}"#
        let fixtures = try TemporaryFixtures([
            "api/stubs.json": #"{"stubs": [{"name": "albums", "request": {"path": "/albums"}, "variants": {"#
                + variants + #", "slow": {"body": "[]", "delayMs": 1}}}, "#
                + #"{"name": "search", "request": {"path": "/search"}, "variants": {"# + variants + "}}]}"
        ])
        return (try StubCatalog.load(from: fixtures.root), fixtures)
    }

    static func record(
        _ stub: String?, _ variant: String?, test: String?, mutation: String? = nil, status: Int? = 200,
        path: String = "/albums", fixtures: String = "/nowhere"
    ) -> CoverageRecord {
        CoverageRecord(
            test: test, transport: "socket", fixtures: fixtures, stub: stub, variant: variant, mutation: mutation,
            status: status,
            fault: nil, operation: nil, change: nil, method: "GET", path: path)
    }

    /// `albums` good and bad served by a passing test, nil only by a failing one; `search` never requested; one
    /// unmatched request; two mutants of albums.
    static func records(of catalog: StubCatalog) -> [CoverageRecord] {
        recordsOfNoFolder.map { record in
            var record = record
            record.fixtures = catalog.root?.path
            return record
        }
    }

    static let recordsOfNoFolder = [
        record("albums", "good", test: "Tests.A/passes()"), record("albums", "bad", test: "Tests.A/passes()"),
        record("albums", "nil", test: "Tests.A/fails()"), record("albums", "good", test: nil),
        record("albums", "good", test: "Tests.A/passes()", mutation: "results:null", status: 200),
        record("albums", "good", test: "Tests.A/passes()", mutation: "status:503", status: 503),
        record(nil, nil, test: "Tests.A/passes()", status: 404, path: "/nowhere"),
    ]
    static let results = ["Tests.A/passes()": true, "Tests.A/fails()": false]

    @Test func aVariantServedOnlyToAFailingTest_isNotServed() throws {
        let (catalog, fixtures) = try Self.catalog()
        defer { fixtures.remove() }
        let report = CoverageReport(
            catalog: catalog, input: CoverageInput(records: Self.records(of: catalog), results: Self.results))
        let albums = try #require(report.stubs.first { $0.name == "albums" })
        #expect(albums.requests == 6)
        let byName = Dictionary(uniqueKeysWithValues: albums.variants.map { ($0.name, $0) })
        #expect(byName["good"]?.tests == ["(no test)", "Tests.A/passes()"])
        #expect(byName["bad"]?.served == true)
        #expect(byName["nil"]?.served == false)
        #expect(byName["nil"]?.failingTests == ["Tests.A/fails()"])
        #expect(byName["slow"]?.served == false)
        #expect(albums.mutants?.served == 2)
        #expect(albums.mutants?.outcomes == ["200": 1, "503": 1])
        #expect(report.stubs.first { $0.name == "search" }?.requests == 0)
        #expect(report.unmatched.map(\.path) == ["/nowhere"])
        #expect(report.totals.variants == 7 && report.totals.variantsCovered == 2)
        #expect(report.totals.stubsRequested == 1)

        // Without the results, the failing test's answer counts.
        let trusting = CoverageReport(catalog: catalog, input: CoverageInput(records: Self.records(of: catalog)))
        #expect(trusting.stubs[0].variants.first { $0.name == "nil" }?.served == true)
    }

    /// A run's other servers serve other folders: their records are not this folder's.
    /// Connections that met a TLS failure are neither a stub's answers nor unmatched requests: each failure is
    /// listed, met or not, once any was met; only a passing test's connection counts.
    @Test func tlsFailuresMet_areListedByFailure_inEveryFormat() throws {
        let (catalog, fixtures) = try Self.catalog()
        defer { fixtures.remove() }
        func met(_ failure: TLSFailure, _ test: String) -> CoverageRecord {
            CoverageRecord(
                test: test, transport: "socket", fixtures: catalog.root?.path, stub: nil, variant: nil, mutation: nil,
                status: nil, fault: nil, operation: nil, change: nil, method: "", path: "", tlsFailure: failure.id)
        }
        let records =
            Self.records(of: catalog) + [
                met(.expired, "Tests.A/passes()"), met(.expired, "Tests.A/passes()"),
                met(.wrongHost, "Tests.A/fails()"),
                met(.otherKey, "Tests.A/unknown()"),
            ]
        let report = CoverageReport(catalog: catalog, input: CoverageInput(records: records, results: Self.results))
        #expect(report.tlsFailures.map(\.failure) == TLSFailure.allCases.map(\.id))
        let byID = Dictionary(uniqueKeysWithValues: report.tlsFailures.map { ($0.failure, $0) })
        #expect(byID["expired"]?.connections == 2)
        #expect(byID["expired"]?.served == true)
        #expect(byID["expired"]?.tests == ["Tests.A/passes()"])
        #expect(byID["wrong-host"]?.served == false)
        #expect(byID["wrong-host"]?.failingTests == ["Tests.A/fails()"])
        #expect(byID["other-key"]?.noResultTests == ["Tests.A/unknown()"])
        #expect(report.unmatched.map(\.path) == ["/nowhere"], "a TLS failure is no unmatched request")
        #expect(report.stubs.map(\.requests).reduce(0, +) == 6)
        #expect(
            report.text.contains(
                "tls failures: 4 connections; +expired -not-yet-valid -wrong-host -self-signed -unknown-authority "
                    + "?other-key -old-protocol -handshake-reset -handshake-stall"))
        #expect(report.markdown.contains("| expired | 2 | ✅ 1 |"))
        #expect(report.markdown.contains("| wrong-host | 1 | ❌ |"))
        #expect(report.html.contains("<h2>TLS failures</h2>"))
        #expect(report.json.contains(#""failure" : "handshake-stall""#))

        let plain = CoverageReport(
            catalog: catalog, input: CoverageInput(records: Self.records(of: catalog), results: Self.results))
        #expect(plain.tlsFailures.isEmpty)
        #expect(!plain.text.contains("tls failures"))
        #expect(!plain.markdown.contains("TLS failure"))
        #expect(!plain.html.contains("TLS failures"))
        // The other sections appear only with something in them, the same way.
        #expect(plain.markdown.contains("Unmatched requests:"))
        #expect(!plain.markdown.contains("Served to tests with no result"))
    }

    @Test func recordsOfAnotherFolder_areLeftOut() throws {
        let (catalog, fixtures) = try Self.catalog()
        defer { fixtures.remove() }
        let report = CoverageReport(catalog: catalog, input: CoverageInput(records: Self.recordsOfNoFolder))
        #expect(report.totals.stubsRequested == 0)
        #expect(report.unmatched.isEmpty)
    }

    /// Ignored tests' answers are left out, as if never served.
    @Test func ignoredTests_areLeftOut() throws {
        let (catalog, fixtures) = try Self.catalog()
        defer { fixtures.remove() }
        let input = CoverageInput(
            records: Self.records(of: catalog), results: Self.results, ignoredTests: ["Tests.A/pass"])
        let report = CoverageReport(catalog: catalog, input: input)
        let albums = try #require(report.stubs.first { $0.name == "albums" })
        #expect(albums.requests == 2)
        #expect(albums.variants.filter(\.served).map(\.name) == ["good"])
        #expect(albums.variants.first?.tests == ["(no test)"])
    }

    @Test func theGap_isNamedInEveryFormat() throws {
        let (catalog, fixtures) = try Self.catalog()
        defer { fixtures.remove() }
        let report = CoverageReport(
            catalog: catalog, input: CoverageInput(records: Self.records(of: catalog), results: Self.results))
        #expect(report.text.contains("albums: 6 requests; +good +bad -nil -slow; 2 mutants (200: 1, 503: 1)"))
        #expect(report.text.contains("unmatched: GET /nowhere (1)"))
        #expect(report.summary == "stubs requested 1/2 (50.0%), variants covered 2/7 (28.6%: 2 served, 0 excepted)")
        let json = try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any]
        #expect(json?["version"] as? Int == 1)
        let stubs = json?["stubs"] as? [[String: Any]]
        let nilCell = (stubs?.first?["variants"] as? [[String: Any]])?.first { $0["name"] as? String == "nil" }
        #expect(nilCell?["served"] as? Bool == false)
        #expect(nilCell?["failingTests"] as? [String] == ["Tests.A/fails()"])
        #expect(report.markdown.contains("| albums | 6 | ✅ 2 | ✅ 1 | ❌ | ❌ | 2 (200: 1, 503: 1) |"))
        #expect(report.html.contains("<td class=\"missing\">not served<ul><li>Tests.A/fails() (failed)</li></ul></td>"))
        #expect(
            report.junit.contains(
                #"<testcase classname="albums" name="nil"><failure message="not served (only by failing tests: "#
                    + #"Tests.A/fails())"/></testcase>"#))
        #expect(report.junit.contains(#"<testsuite name="coverage of failure modes" tests="7" failures="5">"#))
    }

    /// A test the results do not name (XCTest wrote no xUnit file: SwiftPM writes it only with `--parallel`) proved
    /// nothing the report can see: its answers do not count, every format says "no result", and the gate fails on
    /// it unless `--accept-no-result` names it. (Its answers used to count as a pass.)
    @Test func aTestTheResultsDoNotName_isNoResult_inEveryFormat_andFailsTheGate() throws {
        let (catalog, fixtures) = try Self.catalog()
        defer { fixtures.remove() }
        let records =
            Self.records(of: catalog) + [
                Self.record("albums", "slow", test: "XCTests.B/testSlow", fixtures: catalog.root?.path ?? "")
            ]
        let report = CoverageReport(catalog: catalog, input: CoverageInput(records: records, results: Self.results))
        let slow = try #require(report.stubs.first?.variants.first { $0.name == "slow" })
        #expect(slow.served == false && slow.noResultTests == ["XCTests.B/testSlow"])
        #expect(report.testsWithoutResult == ["XCTests.B/testSlow"])
        #expect(report.text.contains("albums: 7 requests; +good +bad -nil ?slow;"))
        #expect(report.text.contains("no result: XCTests.B/testSlow (its answers do not count)"))
        let json = try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any]
        #expect(json?["testsWithoutResult"] as? [String] == ["XCTests.B/testSlow"])
        #expect(report.markdown.contains("| albums | 7 | ✅ 2 | ✅ 1 | ❌ | ❔ no result |"))
        #expect(report.html.contains(#"<td class="noresult">no result<ul><li>XCTests.B/testSlow (no result)</li>"#))
        #expect(report.junit.contains(#"name="slow"><failure message="not served (to tests with no result: "#))
        #expect(
            try CoverageGate(["stubs"]).failures(of: report).first
                == "XCTests.B/testSlow was served answers but has no result in the results files (XCTest writes its "
                + "xUnit file only with `swift test --parallel`); --accept-no-result XCTests.B/testSlow counts it as "
                + "passing")
        #expect(try CoverageGate([]).failures(of: report).isEmpty, "no rule, no gate")

        let accepted = CoverageReport(
            catalog: catalog,
            input: CoverageInput(records: records, results: Self.results, acceptedWithoutResult: ["XCTests.B/"]))
        #expect(accepted.testsWithoutResult.isEmpty)
        #expect(accepted.stubs.first?.variants.first { $0.name == "slow" }?.tests == ["XCTests.B/testSlow"])
        #expect(try CoverageGate(["variants=slow"]).failures(of: accepted).isEmpty)
    }

    @Test(arguments: [
        (
            ["variants=bad,nil"],
            [
                "albums: variant nil was not served (only by failing tests: Tests.A/fails())",
                "search: variant bad was not served", "search: variant nil was not served",
            ]
        ),
        (["stubs"], ["stub search (api) was never requested"]),
        (["variants>=25"], []),
        (["variants>=50"], ["variants covered: 28.6% (2 of 7), below 50.0%"]),
    ])
    func theGate_namesEachGap(rules: [String], failures: [String]) throws {
        let (catalog, fixtures) = try Self.catalog()
        defer { fixtures.remove() }
        let report = CoverageReport(
            catalog: catalog, input: CoverageInput(records: Self.records(of: catalog), results: Self.results))
        #expect(try CoverageGate(rules).failures(of: report) == failures)
    }

    @Test func anException_coversItsCell_withItsReason() throws {
        let (catalog, fixtures) = try Self.catalog()
        defer { fixtures.remove() }
        let exceptions = try CoverageException.load(
            Data(
                (#"{"exceptions": [{"stub": "search", "reason": "the search screen is tested by UI tests"}, "#
                    + #"{"stub": "albums", "variant": "nil", "reason": "an empty feed cannot happen"}]}"#).utf8),
            file: "coverage-exceptions.json")
        let report = CoverageReport(
            catalog: catalog,
            input: CoverageInput(records: Self.records(of: catalog), results: Self.results, exceptions: exceptions)
        )
        #expect(try CoverageGate(["variants=bad,nil", "stubs"]).failures(of: report) == [])
        #expect(report.text.contains("+good +bad ~nil -slow"))
        #expect(report.markdown.contains("- albums nil: an empty feed cannot happen"))
        #expect(report.junit.contains(#"<skipped message="the search screen is tested by UI tests"/>"#))
    }

    @Test(arguments: [
        (#"{"exceptions": [{"stub": "a", "reason": " "}]}"#, "x.json: exceptions[0].reason: every exception says why"),
        (#"{"stubs": []}"#, "x.json: expected {\"exceptions\": [{\"stub\", \"variant\", \"reason\"}]}"),
    ])
    func aBadExceptionsFile_isSaidSo(text: String, message: String) {
        #expect {
            try CoverageException.load(Data(text.utf8), file: "x.json")
        } throws: { error in
            "\(error)".hasPrefix(message)
        }
    }

    @Test func badRules_areSaidSo() {
        #expect(throws: CoverageInputError.self) { try CoverageGate(["variants>=101"]) }
        #expect(throws: CoverageInputError.self) { try CoverageGate(["everything"]) }
    }

    @Test func xUnitResults_passUnlessAFailureIsListed() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites>
              <testsuite name="TestResults" errors="0" tests="3" failures="1" skipped="0" time="1">
                <testcase classname="Tests.A" name="passes()" time="0.1" />
                <testcase classname="Tests.A" name="fails()" time="0.1">
                  <failure message="Expectation failed" />
                </testcase>
                <testcase classname="Tests.B" name="testThrows" time="0.1"><error message="boom"/></testcase>
              </testsuite>
            </testsuites>
            """
        let results = try CoverageInput.results(xUnit: Data(xml.utf8), file: "x.xml")
        #expect(results == ["Tests.A/passes()": true, "Tests.A/fails()": false, "Tests.B/testThrows": false])
        #expect(throws: CoverageInputError.self) {
            try CoverageInput.results(xUnit: Data("<a><b></a>".utf8), file: "x")
        }
    }

    @Test func theFolder_isRead_skippingHalfLinesAndOtherVersions() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coverage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let encoder = JSONEncoder()
        let line = String(decoding: try encoder.encode(Self.recordsOfNoFolder[0]), as: UTF8.self)
        let other = line.replacingOccurrences(of: #""version":1"#, with: #""version":2"#)
        try Data((line + "\n" + other + "\n" + line.prefix(20)).utf8).write(
            to: folder.appendingPathComponent("served-1-1-1.jsonl"))
        try Data((line + "\n").utf8).write(to: folder.appendingPathComponent("notes.txt"))
        #expect(try CoverageInput.records(in: folder) == [Self.recordsOfNoFolder[0]])
    }

    /// Each declared status of an operation: exact, a class (`4XX`: a 4xx not declared on its own), `default` (any
    /// status not declared otherwise).
    @Test func operationStatuses_areExercisedByTheStatusesSent() throws {
        let (catalog, fixtures) = try Self.catalog()
        defer { fixtures.remove() }
        var records = Self.records(of: catalog)
        for (index, status) in [200, 404, 418].enumerated() {
            var record = records[index]
            record.operation = "getAlbums"
            record.status = status
            records[index] = record
        }
        let operations = [("getAlbums", ["200", "404", "4XX", "5XX", "default"]), ("GET /search", ["200"])]
        let report = CoverageReport(catalog: catalog, input: CoverageInput(records: records), operations: operations)
        let albums = try #require(report.operations.first)
        #expect(albums.statuses.map(\.exercised) == [true, true, true, false, true])
        #expect(report.operations.last?.statuses.map(\.exercised) == [false])
        #expect(report.totals.statuses == 6 && report.totals.statusesExercised == 4)
        #expect(report.text.contains("getAlbums: +200 +404 +4XX -5XX +default"))
        #expect(report.markdown.contains("| getAlbums | ✅ 200 ✅ 404 ✅ 4XX ❌ 5XX ✅ default |"))
        #expect(report.html.contains("<tr><th>GET /search</th><td class=\"missing\">200</td></tr>"))
        #expect(
            try CoverageGate(["statuses", "statuses>=80"]).failures(of: report) == [
                "getAlbums: status 5XX was never answered", "GET /search: status 200 was never answered",
                "statuses exercised: 66.7% (4 of 6), below 80.0%",
            ])
        #expect(try CoverageGate(["statuses>=60"]).failures(of: report) == [])
    }
}

// libFuzzer target for what `stub-server coverage` reads: the input is up to four parts separated by a 0xFF byte
// (which no UTF-8 text holds): coverage records (JSON lines), an xUnit file, an exceptions file and `--require`
// rules (one per line). Each is read as the command reads it; the records are then reported against a small
// catalog (their folder set to the catalog's, so that they count). Compiled by Fuzz/run.sh with
// Sources/Stubs/StubCoverage (the core, contracts and XMLPath as libraries).
// Properties, not only survival:
// - the JSON form is valid JSON of version 1, and every other format is produced;
// - the totals agree with the cells: served <= covered <= variants, requested <= stubs;
// - a gate's failures name only stubs, variants and operations the report has, or a test it has no result for;
// - a test with no result is one the given results do not name (and none without results given).
//
// Seeds: records, results, exceptions and rules like the package's own, in Fuzz/seeds/coverage.

import Foundation
import JSONModel
import StubCore

let folder: URL = {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coverage-fuzz-\(getpid())")
    let stubs = #"""
        {"stubs": [
          {"name": "albums", "request": {"path": "/albums"},
           "variants": {"good": {"body": "[]"}, "bad": {"body": "{"}, "nil": {"body": ""}, "slow": {"body": "[]"}}},
          {"name": "search", "request": {"path": "/search"},
           "variants": {"good": {"body": "[]"}, "bad": {"body": "{"}, "nil": {"body": ""}}}
        ]}
        """#
    try? FileManager.default.createDirectory(
        at: folder.appendingPathComponent("api"), withIntermediateDirectories: true)
    try? Data(stubs.utf8).write(to: folder.appendingPathComponent("api/stubs.json"))
    return folder
}()
let catalog = try! StubCatalog.load(from: folder)
let operations = [("getAlbums", ["200", "4XX", "default"]), ("GET /search", ["200", "503"])]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCoverage(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let parts = Array(UnsafeBufferPointer(start: data, count: size)).split(
        separator: 0xFF, maxSplits: 3, omittingEmptySubsequences: false
    ).map { Data($0) }
    var records = CoverageInput.records(from: parts[0])
    for index in records.indices { records[index].fixtures = folder.path }
    let results = parts.count > 1 ? (try? CoverageInput.results(xUnit: parts[1], file: "fuzz.xml")) ?? [:] : [:]
    let exceptions = parts.count > 2 ? (try? CoverageException.load(parts[2], file: "fuzz.json")) ?? [] : []
    let rules = parts.count > 3 ? String(decoding: parts[3], as: UTF8.self).split(separator: "\n").map(String.init) : []

    let report = CoverageReport(
        catalog: catalog, input: CoverageInput(records: records, results: results, exceptions: exceptions),
        operations: operations)
    let totals = report.totals
    precondition(totals.variantsServed <= totals.variantsCovered && totals.variantsCovered <= totals.variants)
    precondition(totals.stubsRequested <= totals.stubs && totals.statusesExercised <= totals.statuses)
    precondition(
        report.stubs.map(\.requests).reduce(0, +) + report.unmatched.map(\.count).reduce(0, +) <= records.count)
    guard case .object(let json)? = try? JSONDecoder().decode(JSONValue.self, from: Data(report.json.utf8)) else {
        preconditionFailure("the JSON form is a JSON object")
    }
    precondition(json["version"] == .number(1))
    precondition(!report.text.isEmpty && !report.markdown.isEmpty && !report.html.isEmpty && !report.junit.isEmpty)
    precondition(
        results.isEmpty
            ? report.testsWithoutResult.isEmpty
            : report.testsWithoutResult.allSatisfy {
                results[$0] == nil
            })
    if let gate = try? CoverageGate(rules) {
        let names = Set(
            report.stubs.map(\.name) + report.operations.map(\.operation) + report.testsWithoutResult
                + ["variants", "statuses"])
        for failure in gate.failures(of: report) {
            precondition(
                names.contains {
                    failure.hasPrefix("stub \($0) ") || failure.hasPrefix("\($0):") || failure.hasPrefix("\($0) ")
                },
                "a failure names what the report has: \(failure)")
        }
    }
    return 0
}

package import Foundation
package import StubCore
import XMLPath

/// What a coverage report is made of: the records the servers wrote, the tests' results, and the exceptions.
package struct CoverageInput: Sendable {
    package var records: [CoverageRecord]
    /// Every test the results name, by coverage name (`Module.Suite/name()`), and whether it passed; empty when no
    /// results were given (every test then counts as passing).
    package var results: [String: Bool]
    package var exceptions: [CoverageException]
    /// Tests whose answers do not count, by the start of their names (`Module.Suite/`): tests of the stub server
    /// itself that serve every variant by construction, for instance.
    package var ignoredTests: [String]
    /// Tests counted as passing though the results do not name them, by the start of their names.
    package var acceptedWithoutResult: [String]

    package init(
        records: [CoverageRecord], results: [String: Bool] = [:], exceptions: [CoverageException] = [],
        ignoredTests: [String] = [], acceptedWithoutResult: [String] = []
    ) {
        self.records = records
        self.results = results
        self.exceptions = exceptions
        self.ignoredTests = ignoredTests
        self.acceptedWithoutResult = acceptedWithoutResult
    }

    /// What the results say of a test.
    package enum Outcome: Sendable, Equatable {
        case passed, failed
        /// Results were given and do not name it (XCTest's xUnit file is written only with `--parallel`): its
        /// answers do not count, and a gate fails on it.
        case noResult
    }

    /// What the results say of `test`: a request outside any test, or a run given no results, passed.
    func outcome(_ test: String?) -> Outcome {
        guard let test, !results.isEmpty else { return .passed }
        if let passed = results[test] { return passed ? .passed : .failed }
        return acceptedWithoutResult.contains { test.hasPrefix($0) } ? .passed : .noResult
    }

    /// Whether answers served to `test` count: outside a test, or to a test that passed.
    func counts(_ test: String?) -> Bool {
        outcome(test) == .passed
    }

    /// Whether `test`'s answers are left out of the report altogether.
    func ignores(_ test: String?) -> Bool {
        guard let test else { return false }
        return ignoredTests.contains { test.hasPrefix($0) }
    }

    /// The records of every `served-*.jsonl` file in `folder`, in file order; lines of another version, or that
    /// are not records, are skipped (a process killed mid-line leaves half a line).
    /// - Throws: `CoverageInputError` when the folder cannot be read.
    package static func records(in folder: URL) throws(CoverageInputError) -> [CoverageRecord] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch {
            throw CoverageInputError("cannot read the coverage folder \(folder.path): \(error.localizedDescription)")
        }
        var records: [CoverageRecord] = []
        for name in names.sorted() where name.hasPrefix("served-") && name.hasSuffix(".jsonl") {
            guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) else {
                continue
            }
            records += Self.records(from: data)
        }
        return records
    }

    /// The records of one file's lines, skipping what is not a record of version 1.
    package static func records(from data: Data) -> [CoverageRecord] {
        let decoder = JSONDecoder()
        return data.split(separator: UInt8(ascii: "\n")).compactMap { line in
            guard let record = try? decoder.decode(CoverageRecord.self, from: Data(line)), record.version == 1 else {
                return nil
            }
            return record
        }
    }

    /// The tests of an xUnit file (`swift test --xunit-output`): each `testcase` as `classname/name`, passed
    /// unless it holds a `failure` or an `error`.
    /// - Throws: `CoverageInputError` naming the line and column of malformed XML.
    package static func results(xUnit data: Data, file: String) throws(CoverageInputError) -> [String: Bool] {
        var parser = XMLPathParser(recordPath: "testsuites.testsuite.testcase")
        parser.element("testsuites.testsuite.testcase@classname,name", as: "case")
        parser.element("testsuites.testsuite.testcase.failure", as: "failure")
        parser.element("testsuites.testsuite.testcase.error", as: "error")
        do {
            var results: [String: Bool] = [:]
            for record in try parser.records(data) {
                guard let attributes = record.elements["case"]?.first?.attributes,
                    let suite = attributes["classname"], let name = attributes["name"]
                else { continue }
                let failed = record.elements["failure"] != nil || record.elements["error"] != nil
                // A test listed twice (each case of a parameterised test) passed only if every listing did.
                results["\(suite)/\(name)", default: true] = results["\(suite)/\(name)", default: true] && !failed
            }
            return results
        } catch {
            throw CoverageInputError("\(file): \(error)")
        }
    }
}

/// A served-or-not cell the gate does not hold against the fixtures, with its reason: from
/// `coverage-exceptions.json` beside the fixtures.
package struct CoverageException: Codable, Equatable, Sendable {
    package var stub: String
    /// The variant; nil for the whole stub.
    package var variant: String?
    package var reason: String

    package init(stub: String, variant: String?, reason: String) {
        self.stub = stub
        self.variant = variant
        self.reason = reason
    }

    /// The file's name, in the fixtures folder.
    package static let fileName = "coverage-exceptions.json"

    /// Reads `{"exceptions": [{"stub": "...", "variant": "...", "reason": "..."}]}`.
    /// - Throws: `CoverageInputError` naming the entry without a reason or the JSON error.
    package static func load(_ data: Data, file: String) throws(CoverageInputError) -> [CoverageException] {
        struct File: Decodable { var exceptions: [CoverageException] }
        let exceptions: [CoverageException]
        do {
            exceptions = try JSONDecoder().decode(File.self, from: data).exceptions
        } catch {
            throw CoverageInputError(
                "\(file): expected {\"exceptions\": [{\"stub\", \"variant\", \"reason\"}]}: \(error)")
        }
        for (index, exception) in exceptions.enumerated()
        where exception.reason.trimmingCharacters(in: .whitespaces).isEmpty {
            throw CoverageInputError("\(file): exceptions[\(index)].reason: every exception says why")
        }
        return exceptions
    }
}

/// Input a report cannot be made from, said so a person can act on it.
package struct CoverageInputError: Error, CustomStringConvertible, Equatable {
    package var description: String

    package init(_ description: String) {
        self.description = description
    }
}

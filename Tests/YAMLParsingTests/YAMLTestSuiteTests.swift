import Foundation
import JSONModel
import TestTurns
import Testing

@testable import YAMLParsing

/// The YAML test suite's cases (`../shared/yaml-test-suite/`, where it exists, as in `.ci/run`): no case may read
/// to a wrong value, every case that must be refused is, and every valid case inside the reader's subset agrees
/// (the others use explicit keys, `%TAG` or tags beyond the core schema, and are refused with a message).
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct YAMLTestSuiteTests {
    /// The shared test data: `$CATALOGKIT_SHARED/yaml-test-suite`, else `shared/` beside the package (`../shared`), else
    /// `/work/shared` (where this project's machines keep it, for a clone made elsewhere, as CI makes one).
    static let suite: URL = {
        let candidates = [
            ProcessInfo.processInfo.environment["CATALOGKIT_SHARED"].map { URL(fileURLWithPath: $0) },
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared"),
            URL(fileURLWithPath: "/work/shared"),
        ].compactMap { $0 }.map { $0.appendingPathComponent("yaml-test-suite") }
        return candidates.first { FileManager.default.fileExists(atPath: $0.path) } ?? candidates[candidates.count - 1]
    }()

    /// Every case folder: one with `in.yaml`, or each numbered folder inside one.
    static func cases() -> [URL] {
        let fileManager = FileManager.default
        let names = (try? fileManager.contentsOfDirectory(atPath: suite.path)) ?? []
        return names.sorted().flatMap { name -> [URL] in
            let folder = suite.appendingPathComponent(name)
            if fileManager.fileExists(atPath: folder.appendingPathComponent("in.yaml").path) { return [folder] }
            let inner = (try? fileManager.contentsOfDirectory(atPath: folder.path)) ?? []
            return inner.sorted().map { folder.appendingPathComponent($0) }.filter {
                fileManager.fileExists(atPath: $0.appendingPathComponent("in.yaml").path)
            }
        }
    }

    enum Outcome: String {
        case agrees, refusedValid, wrongValue, acceptedInvalid, refusedInvalid, noJSON
    }

    static func outcome(_ folder: URL) -> (Outcome, String) {
        let yaml = (try? Data(contentsOf: folder.appendingPathComponent("in.yaml"))).map { [UInt8]($0) } ?? []
        let mustFail = FileManager.default.fileExists(atPath: folder.appendingPathComponent("error").path)
        let read = Result { () throws(YAMLError) -> [JSONValue] in try YAMLReader.documents(yaml) }
        if mustFail {
            if case .success(let values) = read { return (.acceptedInvalid, "\(values)") }
            return (.refusedInvalid, "")
        }
        guard let json = try? Data(contentsOf: folder.appendingPathComponent("in.json")) else {
            return (.noJSON, "")
        }
        let expected = jsonValues(json)
        switch read {
        case .failure(let error): return (.refusedValid, error.description)
        case .success(let values):
            return values == expected ? (.agrees, "") : (.wrongValue, "got \(values), expected \(expected)")
        }
    }

    /// The JSON values of a file that may hold several, one after another.
    static func jsonValues(_ data: Data) -> [JSONValue] {
        let bytes = [UInt8](data)
        var values: [JSONValue] = []
        var start: Int?
        var depth = 0
        var inString = false
        var escaped = false
        func flush(_ end: Int) {
            guard let from = start else { return }
            if let value = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes[from..<end])) {
                values.append(value)
            }
            start = nil
        }
        for (offset, byte) in bytes.enumerated() {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == 0x5C {
                    escaped = true
                } else if byte == 0x22 {
                    inString = false
                }
                if depth == 0, !inString { flush(offset + 1) }
                continue
            }
            let blank = byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
            if start == nil, !blank { start = offset }
            switch byte {
            case 0x22: inString = true
            case 0x5B, 0x7B: depth += 1
            case 0x5D, 0x7D:
                depth -= 1
                if depth == 0 { flush(offset + 1) }
            default:
                if blank, depth == 0 { flush(offset) }
            }
        }
        flush(bytes.count)
        return values
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: suite.path)))
    func noCaseReadsToAWrongValue_andTheShareThatAgreesIsReported() throws {
        var counts: [Outcome: Int] = [:]
        var wrong: [String] = []
        var refusals: [String: Int] = [:]
        for folder in Self.cases() {
            let (outcome, detail) = Self.outcome(folder)
            counts[outcome, default: 0] += 1
            if outcome == .refusedValid {
                let reason = detail.split(separator: ":", maxSplits: 1).last.map(String.init) ?? detail
                refusals[reason.trimmingCharacters(in: .whitespaces).components(separatedBy: "(").first!, default: 0] +=
                    1
            }
            if outcome == .wrongValue || outcome == .acceptedInvalid {
                let name = (try? String(contentsOf: folder.appendingPathComponent("==="), encoding: .utf8)) ?? ""
                wrong.append(
                    "\(folder.lastPathComponent) \(name.trimmingCharacters(in: .whitespacesAndNewlines)): \(outcome) \(detail.prefix(300))"
                )
            }
        }
        let valid = counts[.agrees, default: 0] + counts[.refusedValid, default: 0] + counts[.wrongValue, default: 0]
        print(
            "yaml-test-suite: \(counts[.agrees, default: 0]) of \(valid) valid cases agree, "
                + "\(counts[.refusedValid, default: 0]) refused (outside the subset), \(counts[.wrongValue, default: 0]) wrong; "
                + "\(counts[.refusedInvalid, default: 0]) of \(counts[.refusedInvalid, default: 0] + counts[.acceptedInvalid, default: 0]) "
                + "invalid cases refused; \(counts[.noJSON, default: 0]) without a JSON value skipped")
        for (reason, count) in refusals.sorted(by: { ($1.value, $0.key) < ($0.value, $1.key) }) {
            print("yaml-test-suite: refused \(count): \(reason)")
        }
        for line in wrong { print("yaml-test-suite: \(line)") }
        #expect(counts[.wrongValue, default: 0] == 0)
        #expect(counts[.acceptedInvalid, default: 0] == 0)
        // Every valid case inside the subset agrees: the refused ones use what the reader leaves out on purpose.
        let outside = ["explicit keys", "%TAG directives", "the tag "]
        let inside = refusals.filter { reason, _ in !outside.contains { reason.hasPrefix($0) } }
        #expect(inside.isEmpty, "refused inside the subset: \(inside)")
    }
}

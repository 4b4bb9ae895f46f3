// libFuzzer target for the YAML reader (Sources/Stubs/YAMLParsing). Compiled by Fuzz/run.sh with Sources/Stubs/YAMLParsing
// (Sources/Stubs/JSONModel as a library). Properties, not only survival:
// - a refusal names a line and column inside the input;
// - every document the JSON reader (Foundation's JSONDecoder) accepts reads through the YAML reader to the same
//   value, except where YAML 1.2 differs on purpose: duplicate keys, and what RFC 8259 does not allow either but
//   JSONDecoder reads: control characters ("9\0{" as 9; a line break inside a string, which YAML folds and where
//   a `---` is a document marker), bytes that are not UTF-8, unknown escapes ("\j"), and a broken `\u` escape in
//   a value a later duplicate key replaces (JSONDecoder never reads that value).
//
// Seeds: MockData's JSON files and YAML documents of OpenAPI's shapes, in Fuzz/seeds/yaml-reader.

import Foundation
import JSONModel

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzYAMLReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let lines = bytes.reduce(1) { $0 + ($1 == 0x0A || $1 == 0x0D ? 1 : 0) }
    let read: Result<[JSONValue], YAMLError>
    do {
        read = .success(try YAMLReader.documents(bytes))
    } catch {
        precondition(error.line >= 1 && error.line <= lines && error.column >= 1, "\(error)")
        precondition(!error.message.isEmpty)
        read = .failure(error)
    }
    guard let json = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes)) else { return 0 }
    switch read {
    case .success(let values):
        precondition(values.count == 1 && sameValue(values[0], json), "YAML read \(values), JSON \(json)")
    case .failure(let error):
        if hasLineBreakInString(bytes) { return 0 }
        precondition(
            [
                "duplicate key", "a control character", "bytes that are not UTF-8", "unknown escape",
                "\\u needs 4 hexadecimal digits", "\\x needs 2 hexadecimal digits", "\\U needs 8 hexadecimal digits",
            ].contains {
                error.message.hasPrefix($0)
            },
            "YAML refused JSON that parses: \(error)")
    }
    return 0
}

/// Whether a raw line break (which RFC 8259 forbids there, and JSONDecoder reads) sits inside a JSON string.
func hasLineBreakInString(_ bytes: [UInt8]) -> Bool {
    var inString = false
    var escaped = false
    for byte in bytes {
        if escaped {
            escaped = false
        } else if inString && byte == UInt8(ascii: "\\") {
            escaped = true
        } else if byte == UInt8(ascii: "\"") {
            inString.toggle()
        } else if inString && (byte == 0x0A || byte == 0x0D) {
            return true
        }
    }
    return false
}

/// Equality where a NaN equals a NaN (neither reader makes one from JSON, but compare safely).
func sameValue(_ left: JSONValue, _ right: JSONValue) -> Bool {
    switch (left, right) {
    case (.number(let a), .number(let b)): return a == b || (a.isNaN && b.isNaN)
    case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy(sameValue)
    case (.object(let a), .object(let b)):
        return a.count == b.count && a.allSatisfy { key, value in b[key].map { sameValue(value, $0) } ?? false }
    default: return left == right
    }
}

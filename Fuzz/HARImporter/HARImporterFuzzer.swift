// libFuzzer target for the HAR importer's reader (`HARImporter.entries(in:)`), the step that turns a capture's
// bytes into exchanges before anything is written. Compiled by Fuzz/run.sh into the StubServerRecording module,
// against the engine, the stub logic and XMLPath built as static libraries.
// Properties, not only survival:
// - a capture that cannot be read fails with a `HARError` whose message says what, and whose key path is empty
//   or starts at `log`;
// - what is read is what the importer promises: a host, a method, a path, a status from 100 to 599, and no
//   hop-by-hop or Content-Encoding header among the answer's headers;
// - reading is a function of the bytes: twice gives the same exchanges.

import Foundation
import StubServer

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHARImporter(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let har = Data(UnsafeBufferPointer(start: bytes, count: size))
    let entries: [HARImporter.Entry]
    do {
        entries = try HARImporter.entries(in: har)
    } catch {
        precondition(!error.message.isEmpty, "a HAR error without a message")
        precondition(error.keyPath.isEmpty || error.keyPath.hasPrefix("log"), "key path \(error.keyPath)")
        return 0
    }
    let dropped = Set((ForwardedRequest.hopByHopHeaders + ["Content-Encoding"]).map { $0.lowercased() })
    for entry in entries {
        precondition(!entry.host.isEmpty, "an entry without a host")
        precondition(!entry.request.method.isEmpty, "an entry without a method")
        precondition(!entry.request.path.isEmpty, "an entry without a path")
        precondition((100...599).contains(entry.status), "status \(entry.status)")
        precondition(!entry.headers.contains { dropped.contains($0.name.lowercased()) }, "a dropped header kept")
    }
    let again = try? HARImporter.entries(in: har)
    precondition(again?.count == entries.count, "reading twice gave another number of entries")
    for (first, second) in zip(entries, again ?? []) {
        precondition(
            first.host == second.host && first.request.target == second.request.target
                && first.status == second.status && first.body == second.body && first.headers == second.headers,
            "reading twice gave another entry")
    }
    return 0
}

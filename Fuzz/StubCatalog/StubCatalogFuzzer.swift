// libFuzzer target for the fixture loader: a fuzzed `stubs.json` read by `StubFileReader` (body files resolve
// against an empty folder), then, when it loads, a set of requests matched against the catalog and answered
// through the core's decision and templates. Compiled by Fuzz/run.sh against Sources/Stubs/StubCore (HTTPMessages, JSONModel
// and Locking as libraries). Properties, not only survival:
// - the reader ends in stubs or in problems, and every problem has a file, a key path inside the document's
//   shape and a message;
// - a catalog that loads answers every request with a decision whose journal entry matches it.
//
// Seeds: every MockData/*/stubs.json and the documented examples, in Fuzz/seeds/stub-catalog.

import Foundation
import HTTPMessages

@testable import StubCore

let emptyFolder = FileManager.default.temporaryDirectory.appendingPathComponent("stub-catalog-fuzz")

let probes: [Request] = {
    let targets = [
        "/", "/a", "/albums/1", "/search?term=jack+johnson&limit=5",
        "/api/v1/us/apple-music/top-albums/all/100/explicit.json",
        "/cart", "/graphql", "/%CC%A8",
    ]
    return targets.flatMap { target in
        ["GET", "POST", "HEAD"].compactMap { method in
            try? Request(
                method: method, target: target, headers: HTTPHeaders([("Host", "127.0.0.1:8080"), ("X-User", "a\"b")]),
                body: Array(#"{"user": {"name": "ada"}, "items": [{"id": "7"}], "operationName": "Album"}"#.utf8))
        }
    }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStubCatalog(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var reader = StubFileReader(root: emptyFolder, api: "api")
    let stubs = reader.read(Data(UnsafeBufferPointer(start: data, count: size)))
    for problem in reader.problems {
        precondition(problem.file == "api/stubs.json" && !problem.message.isEmpty, "\(problem)")
        precondition(!problem.keyPath.hasPrefix(".") && !problem.keyPath.hasSuffix("."), "\(problem)")
    }
    guard reader.problems.isEmpty, let catalog = try? StubCatalog(stubs: stubs, root: emptyFolder) else { return 0 }
    var state = StubState(catalog: catalog, journal: RequestJournal(capacity: 64), seed: 1, chaos: 0.5)
    for request in probes {
        let decision = state.decide(request)
        let entry = state.journal.entries(matching: JournalQuery()).last
        precondition(entry?.stub == decision.stubName && entry?.status == decision.status, "journal disagrees")
        if case .answer(_, let variant, _, _, let parameters) = decision.outcome, variant.template {
            let template = Template(baseURL: "http://127.0.0.1:8080", request: request, pathParameters: parameters)
            _ = template.render(variant.body, escaping: Template.Escaping(variant.templateKind ?? .text))
            for field in variant.headers {
                let value = Template.escape(template.render(field.value, escaping: .header), for: .header)
                precondition(!value.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
            }
        }
        if case .answer(_, let variant, _, _, _) = decision.outcome, let pacing = variant.pacing {
            let (pieces, _) = pacing.pieces(of: variant.body)
            precondition(pieces.flatMap(\.bytes) == variant.body && pieces.count <= Pacing.maxPieces)
        }
    }
    return 0
}

// libFuzzer target for mutant generation (Sources/Stubs/StubMutations). Compiled by Fuzz/run.sh with
// Sources/Stubs/StubMutations (HTTPMessages and Locking as libraries). Properties, not only survival:
// - any body gives a list of mutants with unique, non-empty IDs and descriptions, at most `Mutations.cap`, the
//   same list twice;
// - a body that reads as JSON gives value mutants, and each applied (eight of them, spread along the list) is
//   JSON again, as the reader reads it;
// - a body that reads as XML (one element, properly nested) gives element mutants, and each applied (eight of them)
//   is one well-formed element again;
// - a body that reads as neither gives the whole-answer mutants only.
//
// Seeds: small JSON and XML documents of our own shapes, in Fuzz/seeds/mutations.

import HTTPMessages

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMutations(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = Array(UnsafeBufferPointer(start: data, count: size))
    let answer = MutableAnswer(status: 200, headers: HTTPHeaders([("Content-Type", "application/json")]), body: body)
    // The process-wide cache of parsed bodies is emptied after each input: LeakSanitizer cannot follow Swift's
    // tagged enum payloads, so documents still cached at exit read as leaks.
    defer { MutantCache.shared.removeAll() }
    let mutants = Mutations.of(answer)
    precondition(mutants.count <= Mutations.cap)
    precondition(Set(mutants.map(\.id)).count == mutants.count, "duplicate IDs")
    precondition(mutants.allSatisfy { !$0.id.isEmpty && !$0.description.isEmpty })
    precondition(Mutations.of(answer).map(\.id) == mutants.map(\.id), "a second list differs")
    let whole = WholeChange.all.count
    let isJSON = JSONNode(parsing: body) != nil
    let isXML = !isJSON && XMLOutline(parsing: body) != nil
    guard isJSON || isXML else {
        precondition(mutants.count == whole, "a body that is neither JSON nor XML got value mutants")
        return 0
    }
    let values = mutants.dropFirst(whole)
    let picked =
        values.isEmpty
        ? [] : (0..<min(8, values.count)).map { values[whole + $0 * values.count / min(8, values.count)] }
    for mutant in picked {
        guard case .answer(let mutated) = mutant.apply(to: answer) else {
            preconditionFailure("\(mutant.id) is not an answer")
        }
        if isJSON {
            precondition(JSONNode(parsing: mutated.body) != nil, "\(mutant.id) is not JSON")
        } else {
            precondition(XMLOutline(parsing: mutated.body) != nil, "\(mutant.id) is not one well-formed element")
        }
    }
    return 0
}

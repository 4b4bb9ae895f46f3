// libFuzzer target for mutant generation (Sources/Stubs/StubMutations). Compiled by Fuzz/run.sh with
// Sources/Stubs/StubMutations (HTTPMessages and Locking as libraries). Properties, not only survival:
// - any body gives a list of mutants with unique, non-empty IDs and descriptions, at most `Mutations.cap`, the
//   same list twice;
// - a body that reads as JSON gives value mutants, and each applied (eight of them, spread along the list) is
//   JSON again, as the reader reads it;
// - a body that reads as XML (one element, properly nested) gives element mutants, and each applied (eight of them)
//   is one well-formed element again;
// - a body that reads as neither gives the whole-answer mutants only;
// - every listed mutant (at most 32 but no huge value, spread along the list), applied, serves something else than the good answer (a
//   JSON body compared as JSON, as a client reads it) and than the others; each alias resolves to its mutant.
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
    let document = JSONNode(parsing: body)
    /// What a client reads: a JSON body as JSON, since a value mutant writes the document compactly.
    /// A whole-body change but the JSON it writes claims bytes (`body:bom`: a decoder may read past it).
    func claimsBytes(_ mutant: Mutation?) -> Bool {
        if case .whole(let whole)? = mutant?.change { whole.claimsBytes } else { false }
    }
    func served(_ result: MutatedAnswer, bytes: Bool = false) -> [UInt8] {
        guard case .answer(let answer) = result else { return Array("\(result)".utf8) }
        var head = "\(answer.status) \(answer.delayMs)"
        for (name, value) in answer.headers { head += "\n\(name): \(value)" }
        guard document != nil, !bytes, let json = JSONNode(parsing: answer.body) else {
            return Array((head + "\n\nbytes\n").utf8) + answer.body
        }
        return Array((head + "\n\njson\n").utf8) + json.serialized
    }
    var seen = [served(.answer(answer)): "the good answer"]
    // At most 32, spread along the list, no huge value: applying every mutant would slow the run twentyfold.
    let small = mutants.filter { if case .value(_, .huge) = $0.change { false } else { true } }
    let spread = small.count <= 32 ? small : (0..<32).map { small[$0 * small.count / 32] }
    for mutant in spread {
        let result = served(mutant.apply(to: answer), bytes: claimsBytes(mutant))
        precondition(seen[result] == nil, "\(mutant.id) serves what \(seen[result] ?? "") serves")
        seen[result] = mutant.id
        for alias in mutant.aliases {
            precondition(Mutations.mutant(alias, of: answer)?.id == mutant.id, "\(alias) does not resolve")
        }
    }
    let whole = mutants.prefix { if case .whole = $0.change { true } else { false } }.count
    let isJSON = document != nil
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

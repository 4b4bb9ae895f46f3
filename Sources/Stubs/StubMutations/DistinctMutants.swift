/// The mutants that change an answer, each once: one that serves the good answer is left out, and one that serves
/// what an earlier one serves is listed as that one's alias (its ID still resolves, to the earlier one).
struct DistinctMutants {
    /// What a mutant serves, as far as telling mutants apart goes: a fingerprint, and a full comparison for two
    /// mutants (or a mutant and the good answer, nil) whose fingerprints are equal.
    var fingerprint: (Mutation) -> UInt64
    var good: UInt64
    var same: (Mutation, Mutation?) -> Bool

    /// `mutants` in their order, less those that serve the good answer, each with the IDs of its twins.
    func keep(_ mutants: [Mutation]) -> [Mutation] {
        var kept: [Mutation] = []
        var byFingerprint: [UInt64: [Int]] = [:]
        for mutant in mutants {
            let print = fingerprint(mutant)
            if print == good, same(mutant, nil) { continue }
            if let twin = byFingerprint[print]?.first(where: { same(kept[$0], mutant) }) {
                kept[twin].aliases.append(mutant.id)
                continue
            }
            byFingerprint[print, default: []].append(kept.count)
            kept.append(mutant)
        }
        return kept
    }
}

import HTTPMessages
package import StubMutations

extension StubAnswer {
    /// Why an answer has no mutant of the ID asked for.
    package struct MutationRefusal: Error, Equatable {
        package var message: String
        /// The IDs nearest the one asked for (for a typo), at most three.
        package var closest: [String]
    }

    /// This answer's mutant `id` (`Mutations`): a changed status, headers or body, or a fault instead.
    /// - Throws: `MutationRefusal` for an answer that is a stream or a WebSocket, or an ID it has no mutant of.
    package func mutated(_ id: String) throws(MutationRefusal) -> StubAnswer {
        switch delivery {
        case .whole, .paced, .fault: break
        case .events, .webSocket:
            throw MutationRefusal(
                message: "mutants are made of plain answers, not of streams or WebSockets", closest: [])
        }
        let base = MutableAnswer(status: status.code, headers: headers, body: body, delayMs: delayMs)
        guard let mutant = Mutations.mutant(id, of: base) else {
            let mutants = Mutations.of(base)
            throw MutationRefusal(
                message: "no mutant \(id.debugDescription) of this answer (\(mutants.count) mutants)",
                closest: Self.closest(to: id, among: mutants.map(\.id)))
        }
        switch mutant.apply(to: base) {
        case .answer(let mutated):
            return StubAnswer(
                status: HTTPStatus(mutated.status), headers: mutated.headers, body: mutated.body,
                delayMs: mutated.delayMs)
        case .fault(let name):
            var answer = StubAnswer(status: status, headers: headers, body: body, delayMs: delayMs)
            answer.delivery = StubVariant.Fault(rawValue: name).map(Delivery.fault) ?? .whole
            return answer
        }
    }

    /// The status a client sees: none for a fault that sends no head (all but `truncate`).
    package var sentStatus: Int? {
        guard let fault else { return status.code }
        return fault == .truncate ? status.code : nil
    }

    /// The fault this answer is, if it is one.
    package var fault: StubVariant.Fault? {
        if case .fault(let fault) = delivery { return fault }
        return nil
    }

    /// The three IDs sharing the longest start with `id`, the nearest in length first.
    static func closest(to id: String, among ids: [String]) -> [String] {
        struct Candidate {
            var id: String
            var shared: Int
            var apart: Int
        }
        let target = Array(id.utf8)
        let candidates = ids.map { other -> Candidate in
            let bytes = Array(other.utf8)
            var shared = 0
            while shared < min(bytes.count, target.count), bytes[shared] == target[shared] { shared += 1 }
            return Candidate(id: other, shared: shared, apart: abs(bytes.count - target.count))
        }
        let sorted = candidates.sorted { a, b in
            if a.shared != b.shared { return a.shared > b.shared }
            if a.apart != b.apart { return a.apart < b.apart }
            return a.id < b.id
        }
        return sorted.prefix(3).map(\.id)
    }
}

extension StubVariant {
    /// The mutants of this variant's answer, as a request without template values gets it: what
    /// `stub-server mutations` lists and `X-Stub-Mutation` chooses from (a template's mutants are made of its
    /// rendered answer, whose values may differ).
    package var mutants: [Mutation] {
        let headers = HTTPHeaders(self.headers.map { ($0.name, $0.value) })
        return Mutations.of(MutableAnswer(status: status, headers: headers, body: body, delayMs: delayMs))
    }
}

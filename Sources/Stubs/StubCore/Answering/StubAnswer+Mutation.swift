package import HTTPMessages
package import StubMutations

extension StubAnswer {
    /// Why an answer has no mutant of the ID asked for.
    package struct MutationRefusal: Error, Equatable {
        package var message: String
        /// The IDs nearest the one asked for (for a typo), at most three.
        package var closest: [String]

        init(message: String, closest: [String]) {
            (self.message, self.closest) = (message, closest)
        }

        /// No mutant `id` of this `kind` of answer, whose mutants are `mutants`.
        init(noMutant id: String, of kind: String, among mutants: [Mutation]) {
            self.init(
                message: "no mutant \(id.debugDescription) of this \(kind) (\(mutants.count) mutants)",
                closest: StubAnswer.closest(to: id, among: mutants.map(\.id)))
        }
    }

    /// This answer's mutant `id` (`Mutations`): a changed status, headers or body, or a fault instead.
    /// - Throws: `MutationRefusal` for an answer that is a stream or a WebSocket, or an ID it has no mutant of.
    package func mutated(_ id: String) throws(MutationRefusal) -> StubAnswer {
        switch delivery {
        case .whole, .paced, .fault: break
        case .events(let events): return try streamMutated(id, of: events)
        case .webSocket(let script): return try conversationMutated(id, of: script)
        }
        let base = MutableAnswer(status: status.code, headers: headers, body: body, delayMs: delayMs)
        guard let mutant = Mutations.mutant(id, of: base, listedAs: listedAs?.render) else {
            throw MutationRefusal(noMutant: id, of: "answer", among: Mutations.of(base, listedAs: listedAs?.render))
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

    /// This event stream's mutant `id` (`EventStreamMutations`): the stream changed, resumed after the request's
    /// `Last-Event-ID` as the stream is, or a plain answer instead.
    private func streamMutated(_ id: String, of events: EventDelivery) throws(MutationRefusal) -> StubAnswer {
        let stream = MutableEventStream(
            events.source.events, status: status.code, headers: headers, grammar: events.grammar)
        guard let mutant = EventStreamMutations.mutant(id, of: stream) else {
            throw MutationRefusal(noMutant: id, of: "event stream", among: EventStreamMutations.of(stream))
        }
        // A client resuming after a broken connection gets the rest as the stream has it, as from a real server.
        if mutant.breaksTheConnection, let resumed = events.source.lastEventID,
            events.source.events.contains(where: { $0.id == resumed })
        {
            return self
        }
        switch mutant.apply(to: stream) {
        case .answer(let plain):
            return StubAnswer(
                status: HTTPStatus(plain.status), headers: plain.headers, body: plain.body, delayMs: delayMs)
        case .stream(let status, let headers, let blocks, let ending):
            return StubAnswer(
                status: HTTPStatus(status), headers: headers, delayMs: delayMs,
                delivery: .events(EventDelivery(blocks, ending: ending, lastEventID: events.source.lastEventID)))
        }
    }

    /// This WebSocket's mutant `id` (`ConversationMutations`): its script changed.
    private func conversationMutated(_ id: String, of script: WebSocketScript) throws(MutationRefusal) -> StubAnswer {
        let conversation = MutableConversation(script)
        guard let mutant = ConversationMutations.mutant(id, of: conversation) else {
            throw MutationRefusal(noMutant: id, of: "WebSocket", among: ConversationMutations.of(conversation))
        }
        var answer = self
        answer.delivery = .webSocket(WebSocketScript(mutant.apply(to: conversation), of: script))
        return answer
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
        if let events {
            return EventStreamMutations.of(
                MutableEventStream(events.events, status: status, headers: headers, grammar: events.grammar))
        }
        if let script { return ConversationMutations.of(MutableConversation(script)) }
        return Mutations.of(MutableAnswer(status: status, headers: headers, body: body, delayMs: delayMs))
    }
}

extension MutableEventStream {
    /// The stream `events` make, answered with `status` and `headers`.
    package init(_ events: [ServerSentEvent], status: Int, headers: HTTPHeaders, grammar: [Mutation] = []) {
        self.init(status: status, headers: headers, blocks: events.map(Block.init), grammar: grammar)
    }
}

extension MutableEventStream.Block {
    /// `event`'s lines and pause.
    package init(_ event: ServerSentEvent) {
        self.init(lines: event.lines, delayMs: event.delayMs)
    }
}

extension MutableConversation {
    /// `script`'s steps, each answer by the index of its step, where its matcher is.
    package init(_ script: WebSocketScript) {
        self.init(
            steps: script.steps.enumerated().compactMap { index, step in step.replacingMatcher { _ in index } })
    }
}

extension WebSocketScript {
    /// The script `conversation` says, its answers' matchers taken from `original` (whose steps it was made of).
    init(_ conversation: MutableConversation, of original: WebSocketScript) {
        let steps = conversation.steps.compactMap { step in
            step.replacingMatcher { index -> BodyMatcher? in
                if case .reply(let matcher, _, _) = original.steps[index] { matcher } else { nil }
            }
        }
        self.init(steps: steps, protocols: original.protocols)
    }
}

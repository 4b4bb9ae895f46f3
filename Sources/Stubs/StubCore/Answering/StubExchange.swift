import HTTPMessages

/// One request's way through the core, the same for both transports: `StubRuntime.exchange` decides it (and the
/// journal records it) and renders the answer; the transport delivers the answer and reports back through this
/// value what only it learns: a WebSocket it could not open, a stream's end.
package struct StubExchange {
    package let decision: StubDecision
    /// What to deliver; nil when the decision is `.forward` and the transport's forwarder answers.
    package let answer: StubAnswer?
    /// The catalog's generation the decision was made on, for what a transport caches per catalog.
    package let catalogGeneration: Int
    /// The mutant asked for (`X-Stub-Mutation`, or the stub's chosen one), by ID: `answer` is that mutant, or a
    /// 400 when the variant has none of that ID.
    package let mutation: String?
    private let runtime: StubRuntime

    init(
        decision: StubDecision, answer: StubAnswer?, catalogGeneration: Int, mutation: String?, runtime: StubRuntime
    ) {
        self.decision = decision
        self.answer = answer
        self.catalogGeneration = catalogGeneration
        self.mutation = mutation
        self.runtime = runtime
    }

    /// The status the journal records and the log reports: the decision's, or the mutant's.
    package var status: Int? { mutation == nil ? decision.status : answer?.sentStatus }

    /// The fault the journal records and the log reports: the decision's, or the mutant's.
    package var fault: StubVariant.Fault? { mutation == nil ? decision.fault : answer?.fault }

    /// For an answer of Server-Sent Events: what the transport calls once the stream ends however it ends, with
    /// how many of the delivery's pieces it sent; the journal then notes how many events went out.
    package var onStreamEnd: (@Sendable (_ piecesSent: Int) -> Void)? {
        guard case .events(let events) = answer?.delivery, let entry = decision.journalID else { return nil }
        return { [runtime] piecesSent in
            runtime.noteEventsSent(events.eventsSent(piecesSent: piecesSent), entry: entry)
        }
    }

    /// The transport answered `status` instead of opening the WebSocket the answer asked for (an invalid
    /// handshake, or a transport with no sockets): the journal records that status and no stream.
    package func webSocketRefused(status: Int) {
        guard let entry = decision.journalID else { return }
        runtime.updateEntry(entry) { entry in
            entry.status = status
            entry.stream = nil
        }
    }
}

package import HTTPMessages
package import StubMutations

/// A variant's Server-Sent Events: what `"events"` or `"eventsFile"` holds, with how the stream keeps alive and
/// where it breaks.
package struct EventStream: Sendable, Equatable {
    package var events: [ServerSentEvent]
    /// Send `: ping` comments while the stream is idle this long; nil for none.
    package var keepAliveMs: Int?
    /// Close the connection after this many events (without ending the chunked body); nil plays to the end.
    package var dropAfterEvents: Int?
    /// Mutants that follow the stream's grammar, listed before its own (a model API turn's, `TurnMutations`).
    package var grammar: [Mutation]

    package init(
        events: [ServerSentEvent], keepAliveMs: Int? = nil, dropAfterEvents: Int? = nil, grammar: [Mutation] = []
    ) {
        self.events = events
        self.keepAliveMs = keepAliveMs
        self.dropAfterEvents = dropAfterEvents
        self.grammar = grammar
    }

    /// Every block on the wire, without pauses: the variant's body as logs and pages show it.
    package var wire: [UInt8] { events.flatMap(\.wire) }

    /// The stream one request gets.
    /// - Parameters:
    ///   - lastEventID: the request's `Last-Event-ID`: the stream resumes after the event with that id (from the
    ///     start when no event has it).
    ///   - fault: the variant's fault; `truncate` cuts the stream after half its events, `reset` aborts it where
    ///     `dropAfterEvents` says (else after half) with a TCP reset.
    ///   - bytesPerSecond: a throttle: each block waits, on top of its pause, as long as its bytes take at the rate.
    package func delivery(lastEventID: String?, fault: StubVariant.Fault? = nil, bytesPerSecond: Int? = nil)
        -> EventDelivery
    {
        var remaining = events[...]
        if let lastEventID, let resumed = events.lastIndex(where: { $0.id == lastEventID }) {
            remaining = events[(resumed + 1)...]
        }
        let eventCount = remaining.filter(\.isEvent).count
        var ending = StreamEnd.complete
        var limit = Int.max
        if let dropAfterEvents {
            (ending, limit) = (.drop, dropAfterEvents)
        }
        switch fault {
        case .truncate: (ending, limit) = (.drop, min(limit, eventCount / 2))
        case .reset: (ending, limit) = (.reset, min(limit, dropAfterEvents ?? eventCount / 2))
        default: break
        }
        var delivery = EventDelivery(pieces: [], eventsThrough: [], ending: ending, source: (events, lastEventID))
        delivery.grammar = grammar
        var sent = 0
        for event in remaining {
            if sent == limit { break }
            let bytes = event.wire
            var pause = event.delayMs
            if let keepAliveMs {
                while pause > keepAliveMs {
                    delivery.pieces.append(BodyPiece(ServerSentEvent.ping, pauseMs: keepAliveMs))
                    delivery.eventsThrough.append(sent)
                    pause -= keepAliveMs
                }
            }
            if let bytesPerSecond { pause += (bytes.count * 1000 + bytesPerSecond - 1) / bytesPerSecond }
            if event.isEvent { sent += 1 }
            delivery.pieces.append(BodyPiece(bytes, pauseMs: pause))
            delivery.eventsThrough.append(sent)
        }
        return delivery
    }
}

/// One request's Server-Sent Events as a transport sends them: timed pieces, and how the stream ends.
package struct EventDelivery: Sendable, Equatable {
    /// The blocks (and keep-alive comments), each after its pause.
    package var pieces: [BodyPiece]
    /// `eventsThrough[i]`: how many events are out once `pieces[0...i]` are.
    package var eventsThrough: [Int]
    /// How the stream ends after its last piece.
    package var ending: StreamEnd
    /// The events as written and the request's `Last-Event-ID`: what a mutant of the stream is made of.
    package var source: (events: [ServerSentEvent], lastEventID: String?)
    /// The stream's mutants that follow its grammar (`EventStream.grammar`).
    package var grammar: [Mutation] = []

    package init(
        pieces: [BodyPiece], eventsThrough: [Int], ending: StreamEnd,
        source: (events: [ServerSentEvent], lastEventID: String?)
    ) {
        (self.pieces, self.eventsThrough, self.ending, self.source) = (pieces, eventsThrough, ending, source)
    }

    /// The blocks of a mutated stream, resumed after the block whose id is `lastEventID` (from the start when
    /// none has it), as the stream itself resumes.
    package init(_ blocks: [MutatedEventStream.SentBlock], ending: StreamEnd, lastEventID: String?) {
        var remaining = blocks[...]
        if let lastEventID, let resumed = blocks.lastIndex(where: { $0.id == lastEventID }) {
            remaining = blocks[(resumed + 1)...]
        }
        var pieces: [BodyPiece] = []
        var eventsThrough: [Int] = []
        var sent = 0
        for block in remaining {
            for (index, piece) in block.pieces.enumerated() {
                // An event is out with its last piece.
                if block.isEvent && index == block.pieces.count - 1 { sent += 1 }
                pieces.append(piece)
                eventsThrough.append(sent)
            }
        }
        self.init(pieces: pieces, eventsThrough: eventsThrough, ending: ending, source: ([], lastEventID))
    }

    package static func == (lhs: EventDelivery, rhs: EventDelivery) -> Bool {
        (lhs.pieces, lhs.eventsThrough, lhs.ending) == (rhs.pieces, rhs.eventsThrough, rhs.ending)
            && (lhs.source.events, lhs.source.lastEventID) == (rhs.source.events, rhs.source.lastEventID)
            && lhs.grammar == rhs.grammar
    }

    /// How many events had gone out when `piecesSent` pieces had.
    package func eventsSent(piecesSent: Int) -> Int {
        piecesSent <= 0 ? 0 : eventsThrough[min(piecesSent, eventsThrough.count) - 1]
    }
}

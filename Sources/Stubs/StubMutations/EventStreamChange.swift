import HTTPMessages

/// How an event stream is changed: one event (counted from 1, comments and keep-alives not counted), the stream as a
/// whole, the data of every event of one type, or the answer instead of a stream.
enum EventStreamChange: Sendable, Equatable {
    case event(Int, EventChange)
    case stream(StreamChange)
    /// The JSON `data` of every event of `type` (`event:` field, else `message`) changed as a body's value would be.
    case data(type: String, path: [JSONStep], ValueChange)
    /// A plain answer instead of the stream: `status:204`, `status:503`, `body:html-error-page`.
    case answer(WholeChange)
    /// Other blocks in place of the stream's: made by a lister that knows the stream's grammar (a model API's turn
    /// with a tool call's arguments cut, its finish event missing), named and described by it.
    case rewritten([MutableEventStream.Block])

    /// What can happen to one event.
    enum EventChange: String, CaseIterable, Sendable {
        case dropped
        case twice
        /// It and the next event trade places (their pauses stay where they were).
        case swapped = "swapped-with-next"
        /// The stream ends cleanly after it.
        case end = "then-end"
        /// The connection is reset after it.
        case reset = "then-reset"
        /// Nothing more comes after it, and the connection stays open.
        case hang = "then-hang"
        /// It goes out in two reads, split inside a UTF-8 sequence when it has one, else inside its data: the second
        /// piece `splitPauseMs` after the first, so that a client reads the first alone.
        case split
    }

    /// What can happen to the stream as a whole.
    enum StreamChange: String, CaseIterable, Sendable {
        /// The last event is missing when it ends the stream (`[DONE]`, or a type no other event has).
        case noTerminal = "no-terminal"
        /// Lines end with CR LF.
        case crlf
        /// Lines end with CR alone.
        case cr
        /// A comment line opens every event.
        case comments
        /// A comment block (`: ping`) before every event.
        case heartbeats
        /// A `ping` event (`event: ping`, `data: {}`) before every event.
        case pingEvents = "ping-events"
        /// Every `id` is the first event's.
        case idsRepeated = "ids-repeated"
        /// Every `id` is empty, which resets a client's last event ID.
        case idsEmptied = "ids-emptied"
        /// The first event carries `retry: 1`: a client that honours it reconnects after 1 ms.
        case retry
        /// The first event's data is over 1 MB: its JSON object with a `padding` string, else its text padded.
        case hugeEvent = "huge-event"
        /// The second event comes after 61 s, past URLSession's default timeout, with no keep-alive meanwhile.
        case idlePause = "idle-pause"
    }

    /// The answers offered instead of a stream.
    static let answers: [WholeChange] = [.status(204), .status(503), .body(.htmlErrorPage)]

    /// Bytes of `huge-event`'s padding.
    static let hugeBytes = 1_048_576
    /// Milliseconds of `idle-pause`.
    static let idlePauseMs = 61_000
    /// Milliseconds between a split event's two pieces: written back to back, both reach a client in one read.
    static let splitPauseMs = 100

    /// The mutant's ID; a data change's is made by its lister, which knows the path's name.
    var id: String? {
        switch self {
        case .event(let number, let change): "event[\(number)]:\(change.rawValue)"
        case .stream(let change): "events:\(change.rawValue)"
        case .data, .rewritten: nil
        case .answer(let whole): whole.id
        }
    }

    func describe(_ path: String) -> String {
        switch self {
        case .event(let number, let change):
            switch change {
            case .dropped: "event \(number) left out"
            case .twice: "event \(number) sent twice"
            case .swapped: "events \(number) and \(number + 1) in each other's place"
            case .end: "the stream ends cleanly after event \(number)"
            case .reset: "the connection is reset after event \(number)"
            case .hang: "nothing more after event \(number), the connection left open"
            case .split:
                "event \(number) in two reads \(Self.splitPauseMs) ms apart, split inside a UTF-8 sequence or its data"
            }
        case .stream(let change):
            switch change {
            case .noTerminal: "the last event, which ends the stream, is missing"
            case .crlf: "lines end with CR LF"
            case .cr: "lines end with CR alone"
            case .comments: "a comment line opens every event"
            case .heartbeats: "a comment block (: ping) before every event"
            case .pingEvents: "an event of type ping (data {}) before every event"
            case .idsRepeated: "every event has the first event's id"
            case .idsEmptied: "every id is empty (a client's last event ID is reset)"
            case .retry: "the first event carries retry: 1"
            case .hugeEvent: "the first event's data is over 1 MB"
            case .idlePause:
                "the second event after \(Self.idlePauseMs / 1_000) s, past URLSession's default timeout, no keep-alive"
            }
        case .data(_, _, let change): change.describe(path)
        case .rewritten: path
        case .answer(.status(503)): "503 Service Unavailable, Retry-After: 1, instead of the stream"
        case .answer(let whole): "\(whole.description) instead of the stream"
        }
    }
}

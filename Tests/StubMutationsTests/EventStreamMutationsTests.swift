import HTTPMessages
import TestTurns
import Testing

@testable import StubMutations

/// The mutants of an event stream do what their descriptions say, on a stream of three token events (one with
/// `é`) and a `[DONE]`.
@Suite(.takesTurns, .timeLimit(.minutes(1))) struct EventStreamMutationsTests {
    static let stream = MutableEventStream(
        status: 200, headers: HTTPHeaders([("Content-Type", "text/event-stream")]),
        blocks: [
            .init(lines: ["id: 1", "event: token", #"data: {"text":"Caf"}"#], delayMs: 10),
            .init(lines: [": a comment block"], delayMs: 0),
            .init(lines: ["id: 2", "event: token", #"data: {"text":"é"}"#], delayMs: 20),
            .init(lines: ["id: 3", "event: token", #"data: {"text":"!"}"#], delayMs: 30),
            .init(lines: ["id: 4", "event: done", "data: [DONE]"], delayMs: 5),
        ])

    /// The mutant `id`'s blocks as text, how it ends, and its pieces.
    static func sent(_ id: String) throws -> (text: String, ending: StreamEnd, pieces: [BodyPiece]) {
        let mutant = try #require(EventStreamMutations.mutant(id, of: stream), "no mutant \(id)")
        guard case .stream(_, _, let blocks, let ending) = mutant.apply(to: stream) else {
            Issue.record("\(id) is not a stream")
            return ("", .complete, [])
        }
        let pieces = blocks.flatMap(\.pieces)
        return (String(decoding: pieces.flatMap(\.bytes), as: UTF8.self), ending, pieces)
    }

    /// The `id` fields of the events sent, in order.
    static func ids(_ text: String) -> [String] {
        text.split(separator: "\n").filter { $0.hasPrefix("id: ") }.map { String($0.dropFirst(4)) }
    }

    @Test func theMutants_areListedOnce_inAStableOrder() {
        let ids = EventStreamMutations.of(Self.stream).map(\.id)
        #expect(Set(ids).count == ids.count)
        #expect(ids == EventStreamMutations.of(Self.stream).map(\.id))
        #expect(Array(ids.prefix(4)) == ["status:204", "status:503", "body:html-error-page", "events:no-terminal"])
        #expect(ids.contains("event[4]:then-reset") && !ids.contains("event[4]:then-end"))
        #expect(!ids.contains("event[4]:swapped-with-next") && !ids.contains("event[5]:dropped"))
        #expect(ids.contains("data(token).text:null") && !ids.contains { $0.hasPrefix("data(done)") })
    }

    /// Data that is a JSON array names its elements `data(type)[*]`, as a message's are `message[N][*]`.
    @Test func anArrayOfData_namesItsElementsUnderTheEventType() {
        let stream = MutableEventStream(
            status: 200, headers: HTTPHeaders([("Content-Type", "text/event-stream")]),
            blocks: [.init(lines: ["event: rows", #"data: [{"id":1},{"id":2}]"#], delayMs: 0)])
        let ids = EventStreamMutations.of(stream).map(\.id)
        #expect(ids.contains("data(rows)[*].id:null") && ids.contains("data(rows):one"))
        #expect(!ids.contains { $0.contains("$") }, "\(ids)")
    }

    @Test(arguments: [
        ("event[2]:dropped", ["1", "3", "4"]),
        ("event[2]:twice", ["1", "2", "2", "3", "4"]),
        ("event[1]:swapped-with-next", ["2", "1", "3", "4"]),
        ("event[2]:then-end", ["1", "2"]),
        ("events:no-terminal", ["1", "2", "3"]),
        ("events:ids-repeated", ["1", "1", "1", "1"]),
    ])
    func theEvents_comeAsTheMutantSays(_ id: String, _ expected: [String]) throws {
        #expect(Self.ids(try Self.sent(id).text) == expected)
    }

    @Test(arguments: [
        ("event[2]:then-end", StreamEnd.complete), ("event[2]:then-reset", .reset), ("event[4]:then-hang", .hang),
        ("events:crlf", .complete),
    ])
    func theStream_endsAsTheMutantSays(_ id: String, _ ending: StreamEnd) throws {
        #expect(try Self.sent(id).ending == ending)
    }

    @Test func aSplitEvent_isCutInsideItsUTF8Sequence_orElseInsideItsData() throws {
        let utf8 = try Self.sent("event[2]:split").pieces
        #expect(utf8.count == 6)
        #expect(utf8[2].bytes.last == 0xC3 && utf8[3].bytes.first == 0xA9, "é is C3 A9: cut between them")
        #expect(utf8[3].pauseMs == EventStreamChange.splitPauseMs, "the second piece is held back, to be read alone")
        let ascii = try Self.sent("event[1]:split").pieces
        #expect(String(decoding: ascii[0].bytes, as: UTF8.self).hasSuffix(#"data: {"te"#))
        #expect(
            try Self.sent("event[1]:split").text
                == (try Self.sent("events:retry").text.replacingOccurrences(of: "retry: 1\n", with: "")))
    }

    @Test func lineEnds_commentsHeartbeatsAndIDs_areChanged() throws {
        let crlf = try Self.sent("events:crlf").text
        #expect(crlf.contains("id: 1\r\n") && !crlf.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        let cr = try Self.sent("events:cr").text
        #expect(!cr.contains("\n") && cr.contains("id: 1\r"))
        #expect(
            try Self.sent("events:comments").text.components(separatedBy: ": this line is a comment\nid:").count == 5)
        #expect(try Self.sent("events:heartbeats").text.components(separatedBy: ": ping\n\n").count == 5)
        #expect(
            try Self.sent("events:ping-events").text.components(separatedBy: "event: ping\ndata: {}\n\n").count == 5)
        let emptied = try Self.sent("events:ids-emptied").text
        #expect(emptied.components(separatedBy: "id:\n").count == 5 && !emptied.contains("id: "))
        #expect(try Self.sent("events:retry").text.hasPrefix("retry: 1\nid: 1\n"))
    }

    @Test func theHugeEvent_andTheIdlePause() throws {
        let huge = try Self.sent("events:huge-event")
        #expect(huge.pieces[0].bytes.count > EventStreamChange.hugeBytes)
        #expect(huge.text.hasPrefix(#"id: 1"# + "\nevent: token\n" + #"data: {"text":"Caf","padding":"xxx"#))
        let paused = try Self.sent("events:idle-pause").pieces
        #expect(paused.map(\.pauseMs) == [10, 0, 20 + EventStreamChange.idlePauseMs, 30, 5])
    }

    @Test func eachTokensData_isMutated_theOthersLeftAlone() throws {
        let text = try Self.sent("data(token).text:null").text
        #expect(text.components(separatedBy: #"data: {"text":null}"#).count == 4)
        #expect(text.contains("data: [DONE]"))
    }

    /// An event's data as a whole is mutated as a value is: `data: null`, `data: []` and the rest in every event of
    /// the type, as real servers send them. (On 14b4e76 only `data(token):unknown-key` was listed, and asking for
    /// `data(token):null` was refused.)
    @Test(arguments: [
        ("data(token):null", "null"), ("data(token):as-array", "[]"), ("data(token):as-string", #""retyped""#),
        ("data(token):as-number", "1"), ("data(token):as-bool", "true"), ("data(token):empty", "{}"),
    ])
    func anEventsWholeData_isMutated(_ id: String, _ data: String) throws {
        let text = try Self.sent(id).text
        #expect(text.components(separatedBy: "data: \(data)\n").count == 4, "\(text)")
        #expect(text.contains("data: [DONE]"))
        #expect(EventStreamMutations.of(Self.stream).contains { $0.id == id })
    }

    /// `events:no-terminal` and dropping the last event send the same and are listed once; a cut after the
    /// event before sends the same first answer but is a mutant of its own: a client that resumes after it gets the
    /// rest as written, not as mutated.
    @Test func twins_areListedOnce_butNotAcrossABrokenConnection() throws {
        let mutants = EventStreamMutations.of(Self.stream)
        let noTerminal = try #require(mutants.first { $0.id == "events:no-terminal" })
        #expect(noTerminal.aliases == ["event[4]:dropped"])
        #expect(mutants.contains { $0.id == "event[3]:then-end" })
        #expect(EventStreamMutations.mutant("event[4]:dropped", of: Self.stream) != nil, "an alias still resolves")
    }

    @Test(arguments: [("status:204", 204, nil), ("status:503", 503, "1"), ("body:html-error-page", 200, nil)])
    func anAnswer_insteadOfTheStream(_ id: String, _ status: Int, _ retryAfter: String?) throws {
        let mutant = try #require(EventStreamMutations.mutant(id, of: Self.stream))
        guard case .answer(let answer) = mutant.apply(to: Self.stream) else {
            Issue.record("\(id) is a stream")
            return
        }
        #expect(answer.status == status)
        #expect(answer.headers["Retry-After"] == retryAfter)
        #expect((answer.headers["Content-Type"] ?? "").hasPrefix("text/event-stream") == false)
    }
}

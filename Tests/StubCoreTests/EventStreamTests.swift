import HTTPMessages
import TestTurns
import Testing

@testable import StubCore

/// Server-Sent Events as values: the events file format, events made from their parts, and the stream one
/// request gets (resumed, kept alive, cut, throttled).
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct EventStreamTests {
    private static func text(_ events: [ServerSentEvent]) -> String {
        String(decoding: events.flatMap(\.wire), as: UTF8.self)
    }

    @Test func anEventFromItsParts_writesOneDataLinePerLine_andJSONAsText() {
        let event = ServerSentEvent.make(event: "token", data: "Hel\nlo\r\nyou", id: "1", retry: 2000, delayMs: 40)
        #expect(
            String(decoding: event.wire, as: UTF8.self)
                == "event: token\nid: 1\nretry: 2000\ndata: Hel\ndata: lo\ndata: you\n\n")
        #expect(event.id == "1" && event.isEvent && event.delayMs == 40)
        let empty = ServerSentEvent.make(data: "")
        #expect(String(decoding: empty.wire, as: UTF8.self) == "data:\n\n")
        let comment = ServerSentEvent.make(comment: "just a note")
        #expect(!comment.isEvent, "a block of comments only is no event")
    }

    @Test func aFile_readsBlocksAndTheirDelays_withEveryLineEnd() throws {
        let file = "\u{FEFF}: delay=40\nevent: token\r\nid: 1\rdata: Hel\n\n: a note\n: delay=10\n: delay=5\ndata: lo\n"
        let events = try EventStreamFile.parse(Array(file.utf8))
        #expect(events.count == 2)
        #expect(events[0].lines == ["event: token", "id: 1", "data: Hel"])
        #expect(events[0].delayMs == 40 && events[0].id == "1")
        #expect(
            events[1].lines == [": a note", "data: lo"], "other comments are kept; the last block needs no blank line")
        #expect(events[1].delayMs == 15, "delays before one block add up")
        #expect(events[1].id == nil)
    }

    @Test func aFile_roundTripsThroughItsRendering() throws {
        let file = ": delay=40\nevent: token\nid: 1\ndata: Hel\n\n: delay=25\ndata: {\"a\":1}\n\n"
        let events = try EventStreamFile.parse(Array(file.utf8))
        #expect(String(decoding: EventStreamFile.render(events), as: UTF8.self) == file)
    }

    @Test(arguments: [
        (
            "data: a\n: delay=fast\n",
            "line 2, column 9: delay must be whole milliseconds from 0 to 600000, not \"fast\""
        ),
        ("data: a\n\n:delay=-4\n", "line 3, column 8: delay must be whole milliseconds from 0 to 600000, not \"-4\""),
        (
            ": delay=600001\ndata: a\n",
            "line 1, column 9: delay must be whole milliseconds from 0 to 600000, not \"600001\""
        ),
        (": only a comment\n\n", "line 2, column 1: the file holds no event (no data line)"),
        ("", "line 1, column 1: the file holds no event (no data line)"),
    ])
    func aBrokenFile_isRefusedWithItsLineAndColumn(_ file: String, expected: String) {
        #expect(throws: EventStreamFile.Problem.self) { try EventStreamFile.parse(Array(file.utf8)) }
        do {
            _ = try EventStreamFile.parse(Array(file.utf8))
        } catch {
            #expect(error.description == expected)
        }
    }

    /// Found by the event-stream fuzz target: a first line opening with U+FEFF lost it when rendered and read back.
    @Test func aFirstLineOpeningWithTheByteOrderMark_survivesRendering() throws {
        let events = try EventStreamFile.parse(Array("\r\u{FEFF}data: a\ndata: b\n\n".utf8))
        #expect(events.map(\.lines) == [["\u{FEFF}data: a", "data: b"]])
        #expect(try EventStreamFile.parse(EventStreamFile.render(events)) == events)
    }

    @Test func bytesThatAreNotUTF8_areRefusedAtTheirColumn() {
        let bytes = Array("data: ok\ndata: é".utf8) + [0xFF, 0x41]
        #expect(throws: EventStreamFile.Problem(line: 2, column: 9, message: "the bytes are not UTF-8")) {
            try EventStreamFile.parse(bytes)
        }
    }

    private static let stream = EventStream(events: [
        .make(data: "a", id: "1", delayMs: 0), .make(data: "b", id: "2", delayMs: 100),
        .make(comment: "between"), .make(data: "c", id: "3", delayMs: 50), .make(data: "d", delayMs: 10),
    ])

    @Test func aStream_isItsBlocksAtTheirPauses_andCountsOnlyEvents() {
        let delivery = Self.stream.delivery(lastEventID: nil)
        #expect(delivery.pieces.map(\.pauseMs) == [0, 100, 0, 50, 10])
        #expect(delivery.eventsThrough == [1, 2, 2, 3, 4])
        #expect(delivery.ending == .complete)
        #expect(delivery.eventsSent(piecesSent: 0) == 0)
        #expect(delivery.eventsSent(piecesSent: 3) == 2)
        #expect(delivery.eventsSent(piecesSent: 9) == 4)
    }

    @Test(arguments: [("2", ["c", "d"]), ("3", ["d"]), ("99", ["a", "b", "c", "d"]), ("1", ["b", "c", "d"])])
    func lastEventID_resumesAfterThatEvent(_ id: String, expected: [String]) {
        let delivery = Self.stream.delivery(lastEventID: id)
        let data = delivery.pieces.compactMap { piece in
            String(decoding: piece.bytes, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("data: ") }
                .map { String($0.dropFirst(6)) }
        }
        #expect(data == expected)
    }

    @Test func keepAlive_sendsPingsWhileAPauseIsLongerThanIt() {
        var stream = Self.stream
        stream.keepAliveMs = 30
        let delivery = stream.delivery(lastEventID: nil)
        let kinds = delivery.pieces.map { $0.bytes == ServerSentEvent.ping ? "ping" : "block" }
        #expect(kinds == ["block", "ping", "ping", "ping", "block", "block", "ping", "block", "block"])
        #expect(delivery.pieces.map(\.pauseMs) == [0, 30, 30, 30, 10, 0, 30, 20, 10], "pings split the pause exactly")
        #expect(delivery.eventsThrough == [1, 1, 1, 1, 2, 2, 2, 3, 4])
    }

    @Test(arguments: [
        (2 as Int?, nil as StubVariant.Fault?, 2, StreamEnd.drop),
        (0, nil, 0, .drop),
        (nil, .truncate, 2, .drop),
        (3, .truncate, 2, .drop),
        (nil, .reset, 2, .reset),
        (3, .reset, 3, .reset),
    ])
    func aCutStream_endsAfterItsEvents(
        _ dropAfter: Int?, fault: StubVariant.Fault?, events: Int, ending: StreamEnd
    ) {
        var stream = Self.stream
        stream.dropAfterEvents = dropAfter
        let delivery = stream.delivery(lastEventID: nil, fault: fault)
        #expect(delivery.eventsThrough.last ?? 0 == events)
        #expect(delivery.ending == ending)
        #expect(delivery.eventsThrough.filter { $0 == events }.count == 1 || events == 0, "nothing after the cut")
    }

    @Test func aThrottle_addsEachBlocksSendingTimeToItsPause() {
        let delivery = EventStream(events: [.make(data: "0123456789")]).delivery(lastEventID: nil, bytesPerSecond: 4)
        #expect(delivery.pieces[0].bytes.count == 18)
        #expect(delivery.pieces[0].pauseMs == 4500, "18 bytes at 4 a second")
    }

    /// A client dispatches only blocks with data (HTML, 9.2.6): a block of an id alone counts as no event, though
    /// its id still resumes; a colon or space followed by a combining mark is still read as one.
    @Test func onlyBlocksWithData_areEvents_andFieldsAreReadByBytes() throws {
        let idOnly = ServerSentEvent(lines: ["id: 5"])
        #expect(!idOnly.isEvent && idOnly.id == "5")
        #expect(ServerSentEvent(lines: ["data"]).isEvent, "a data field with no colon has an empty value")
        #expect(EventStreamField.parse("id: \u{301}x") == ("id", "\u{301}x"))
        #expect(EventStreamField.parse("id:\u{301}") == ("id", "\u{301}"))
        #expect(throws: EventStreamFile.Problem(line: 2, column: 1, message: "the file holds no event (no data line)"))
        {
            try EventStreamFile.parse(Array("id: 1\n\n".utf8))
        }
    }
}

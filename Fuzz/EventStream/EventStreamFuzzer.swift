// libFuzzer target for events files (Sources/Stubs/StubCore/Streams: EventStreamFile) and the streams made of them.
// Compiled by Fuzz/run.sh against Sources/Stubs/StubCore (HTTPMessages, JSONModel and Locking as libraries). Properties,
// not only survival:
// - a file that parses renders to bytes that parse to the same events (the recorder writes what replays);
// - every kept line is one line (no CR or LF), and every event's wire ends with the blank line that dispatches it;
// - a stream of those events, resumed after an id the input names and cut after a count it names, sends pieces
//   and counts that agree: one count per piece, never falling, never above the events it holds, and no more
//   events than the cut allows.
//
// Seeds: small streams in the wire format with delays, comments, every line end and a BOM, in
// Fuzz/seeds/event-stream; dictionary Fuzz/event-stream.dict.

@testable import StubCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEventStreams(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let events = try? EventStreamFile.parse(bytes) else { return 0 }
    let rendered = EventStreamFile.render(events)
    guard let again = try? EventStreamFile.parse(rendered) else {
        preconditionFailure("a rendered file does not parse")
    }
    precondition(again == events, "rendering changed the events")
    for event in events {
        precondition(event.lines.allSatisfy { !$0.contains("\n") && !$0.contains("\r") })
        precondition(event.wire.suffix(2) == [0x0A, 0x0A])
        precondition((0...EventStreamFile.maxDelayMs).contains(event.delayMs))
    }
    let ids = events.compactMap(\.id)
    let resumeAfter = ids.isEmpty ? nil : ids[Int(bytes[0]) % ids.count]
    let cut = size > 1 ? Int(bytes[1] % 8) : nil
    let stream = EventStream(
        events: events, keepAliveMs: size > 2 ? Int(bytes[2]) * 100 + 1 : nil, dropAfterEvents: cut)
    let delivery = stream.delivery(lastEventID: resumeAfter, fault: size > 3 && bytes[3] & 1 == 1 ? .truncate : nil)
    precondition(delivery.pieces.count == delivery.eventsThrough.count)
    precondition(zip(delivery.eventsThrough, delivery.eventsThrough.dropFirst()).allSatisfy { $0 <= $1 })
    let total = events.filter(\.isEvent).count
    let sent = delivery.eventsSent(piecesSent: delivery.pieces.count)
    precondition(sent <= total && sent <= (cut ?? Int.max))
    precondition(delivery.pieces.allSatisfy { $0.pauseMs >= 0 })
    return 0
}

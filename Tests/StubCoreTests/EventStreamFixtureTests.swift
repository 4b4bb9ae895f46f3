import Foundation
import StubTestSupport
import TestTurns
import Testing

@testable import StubCore

/// Server-Sent Events as written in `stubs.json` and in events files: what loads, and every mistake with its
/// key path, line and column.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct EventStreamFixtureTests {
    private static let required = #""good": {"body": "g"}, "bad": {"body": "b"}, "nil": {"body": ""}"#

    private func load(_ variants: String, files: [String: String] = [:]) throws -> (StubCatalog?, [String]) {
        let stubs =
            #"{"stubs": [{"name": "a", "request": {"method": "POST", "path": "/a"}, "variants": {\#(Self.required), \#(variants)}}]}"#
        var all = files.reduce(into: [:]) { $0["api/\($1.key)"] = $1.value }
        all["api/stubs.json"] = stubs
        return try TemporaryFixtures.load(all)
    }

    @Test func eventsAndAnEventsFile_loadWithTheirTypeAndInheritance() throws {
        let variants = #"""
            "s": {"events": [{"event": "token", "data": {"t": "Hel"}, "id": "1"}, {"data": "lo", "delayMs": 40}],
                  "keepAliveMs": 1000},
            "cut": {"like": "s", "dropAfterEvents": 1},
            "plain": {"like": "s", "body": "{}"},
            "file": {"eventsFile": "chat.sse", "headers": {"Content-Type": "text/event-stream; charset=utf-8"}}
            """#
        let (catalog, problems) = try load(variants, files: ["chat.sse": ": delay=20\ndata: x\n\n"])
        #expect(problems == [])
        let stub = try #require(catalog?.stub(named: "a"))
        let s = try #require(stub.variants["s"])
        #expect(s.header("Content-Type") == "text/event-stream" && s.header("Cache-Control") == "no-cache")
        #expect(
            String(decoding: s.body, as: UTF8.self) == "event: token\nid: 1\ndata: {\"t\":\"Hel\"}\n\ndata: lo\n\n",
            "the body is the stream without its pauses")
        #expect(s.events?.keepAliveMs == 1000 && s.events?.events.map(\.delayMs) == [0, 40])
        #expect(stub.variants["cut"]?.events?.dropAfterEvents == 1)
        #expect(stub.variants["cut"]?.events?.keepAliveMs == 1000, "like keeps the stream's keys")
        #expect(stub.variants["plain"]?.events == nil, "a body replaces the events it inherits")
        #expect(stub.variants["file"]?.events?.events.map(\.delayMs) == [20])
        #expect(stub.variants["file"]?.header("Content-Type") == "text/event-stream; charset=utf-8")
    }

    @Test(arguments: [
        (
            #""x": {"events": [{"data": "a"}], "body": "b"}"#,
            "stubs[0].variants.x.body: a stream's body is its events; remove body"
        ),
        (
            #""x": {"events": []}"#,
            #"stubs[0].variants.x.events: must be a non-empty array of events such as {"data": "Hel"}"#
        ),
        (
            #""x": {"events": [{}]}"#,
            "stubs[0].variants.x.events[0]: needs at least one of data, event, id, retry or comment"
        ),
        (
            #""x": {"events": [{"event": "a\nb"}]}"#,
            "stubs[0].variants.x.events[0].event: must be one line: a line break would end the field"
        ),
        (
            #""x": {"events": [{"data": "a", "name": "b"}]}"#,
            "stubs[0].variants.x.events[0].name: unknown key (known: event, data, id, retry, delayMs, comment)"
        ),
        (
            #""x": {"events": [{"data": "a", "delayMs": -1}]}"#,
            "stubs[0].variants.x.events[0].delayMs: must be an integer in 0...600000"
        ),
        (
            #""x": {"eventsFile": "bad.sse"}"#,
            "stubs[0].variants.x.eventsFile: bad.sse: line 2, column 9: delay must be whole milliseconds from 0 to 600000, not \"soon\""
        ),
        (#""x": {"eventsFile": "missing.sse"}"#, "stubs[0].variants.x.eventsFile: no such file missing.sse"),
        (
            #""x": {"events": [{"data": "a"}], "eventsFile": "bad.sse"}"#,
            #"stubs[0].variants.x: has both "events" and "eventsFile"; keep one"#
        ),
        (
            #""x": {"body": "a", "dropAfterEvents": 1}"#,
            #"stubs[0].variants.x: keepAliveMs and dropAfterEvents apply to a stream: add "events" or "eventsFile""#
        ),
        (
            #""x": {"events": [{"data": "a"}, {"comment": "c"}], "dropAfterEvents": 1}"#,
            "stubs[0].variants.x: dropAfterEvents 1 cuts nothing: the stream has 1 events"
        ),
        (
            #""x": {"events": [{"data": "a"}], "keepAliveMs": 0}"#,
            "stubs[0].variants.x.keepAliveMs: must be an integer in 1...600000"
        ),
    ])
    func aMistake_isReportedWithItsKeyPath(_ variants: String, expected: String) throws {
        let (catalog, problems) = try load(variants, files: ["bad.sse": "data: a\n: delay=soon\n"])
        #expect(catalog == nil)
        #expect(problems.contains("api/stubs.json: " + expected), "\(problems)")
    }
}

import Foundation
import HTTPMessages
import StubTestSupport
import TestTurns
import Testing

@testable import StubCore

/// WebSocket stubs as written in `stubs.json`: what loads, and every mistake with its key path.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct WebSocketFixtureTests {
    private func load(request: String = #""path": "/ws", "websocket": true"#, variants: String) throws -> (
        StubCatalog?, [String]
    ) {
        let stubs = #"{"stubs": [{"name": "ws", "request": {\#(request)}, "variants": {\#(variants)}}]}"#
        return try TemporaryFixtures.load(["api/stubs.json": stubs])
    }

    private static let required = #""bad": {"script": []}, "nil": {"script": []}"#

    @Test func aScript_loadsItsSteps_andTheStubsProtocols() throws {
        let variants = #"""
            "good": {"script": [
              {"send": "hello"}, {"send": {"json": {"a": 1}}, "delayMs": 20}, {"send": {"binary": "AAEC"}},
              {"on": {"json": {"type": "ping"}}, "send": [{"json": {"type": "pong"}}, "and"], "delayMs": 5},
              {"close": {"code": 4000, "reason": "done", "afterMs": 900}}, {"drop": {"afterMs": 1000}}]},
            "refused": {"status": 403}, \#(Self.required)
            """#
        let (catalog, problems) = try load(
            request: #""path": "/ws", "websocket": {"protocols": ["chat.v2", "chat.v1"]}"#, variants: variants)
        #expect(problems == [])
        let stub = try #require(catalog?.stub(named: "ws"))
        let script = try #require(stub.variants["good"]?.script)
        #expect(script.protocols == ["chat.v2", "chat.v1"])
        #expect(
            script.opening == [
                WebSocketOutput(.text("hello")), WebSocketOutput(.text(#"{"a":1}"#), delayMs: 20),
                WebSocketOutput(.binary([0, 1, 2]), delayMs: 20),
                WebSocketOutput(.close(code: 4000, reason: "done"), delayMs: 900),
                WebSocketOutput(.drop, delayMs: 1000),
            ])
        #expect(
            script.replies(to: .text(#"{"type": "ping", "id": 3}"#)) == [
                WebSocketOutput(.text(#"{"type":"pong"}"#), delayMs: 5), WebSocketOutput(.text("and"), delayMs: 5),
            ])
        #expect(script.replies(to: .text("other")) == [])
        #expect(stub.variants["refused"]?.script == nil, "a variant without a script answers the handshake over HTTP")
        #expect(stub.request.summary == "/ws [websocket]")
    }

    @Test(arguments: [
        (
            #""good": {"script": {"send": "a"}}"#,
            #"stubs[0].variants.good.script: must be an array of steps such as {"send": "hello"}"#
        ),
        (
            #""good": {"script": [{"delayMs": 5}]}"#,
            #"stubs[0].variants.good.script[0]: needs "send", "close" or "drop""#
        ),
        (
            #""good": {"script": [{"send": 5}]}"#,
            #"stubs[0].variants.good.script[0].send: must be a string, {"json": VALUE} or {"binary": BASE64}"#
        ),
        (
            #""good": {"script": [{"send": {"binary": "A"}}]}"#,
            "stubs[0].variants.good.script[0].send.binary: must be base64 (RFC 4648, with padding)"
        ),
        (
            #""good": {"script": [{"close": {"code": 1005}}]}"#,
            "stubs[0].variants.good.script[0].close.code: 1005 may not be sent in a close frame (RFC 6455, 7.4)"
        ),
        (
            #""good": {"script": [{"close": {}, "send": "a"}]}"#,
            #"stubs[0].variants.good.script[0]: a close step holds only "close""#
        ),
        (
            #""good": {"script": [{"on": {"nope": 1}, "send": "a"}]}"#,
            "stubs[0].variants.good.script[0].on.nope: unknown key (known: equals, matches, json, exact, jsonPath, form)"
        ),
    ])
    func aScriptMistake_isReportedWithItsKeyPath(_ good: String, expected: String) throws {
        let (catalog, problems) = try load(variants: good + ", " + Self.required)
        #expect(catalog == nil)
        #expect(problems.contains("api/stubs.json: " + expected), "\(problems)")
    }

    @Test(arguments: [
        (
            #""method": "POST", "path": "/ws", "websocket": true"#,
            "stubs[0].request.method: a WebSocket handshake is a GET, not POST"
        ),
        (
            #""path": "/ws", "websocket": {"protocols": []}"#,
            "stubs[0].request.websocket.protocols: must be a non-empty array of subprotocol names"
        ),
        (#""path": "/ws", "websocket": "yes""#, #"stubs[0].request.websocket: must be true or {"protocols": [...]}"#),
        (
            #""path": "/ws""#,
            #"stubs[0].variants.bad.script: a script answers a WebSocket stub: add "websocket": true to the request"#
        ),
    ])
    func aRequestMistake_isReportedWithItsKeyPath(_ request: String, expected: String) throws {
        let (catalog, problems) = try load(request: request, variants: #""good": {"script": []}, "# + Self.required)
        #expect(catalog == nil)
        #expect(problems.contains("api/stubs.json: " + expected), "\(problems)")
    }
}

import Foundation
import HTTPEngine
import StubTestSupport
import TestTurns
import Testing

@testable import StubCore
@testable import StubServer

/// Stubs that answer by a scenario's state and move it on: a cart whose GET changes after a POST.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct ScenarioTests {
    static let stubs = #"""
        {"stubs": [
          {"name": "cart-empty", "request": {"path": "/cart"}, "scenario": {"name": "cart", "when": "start"},
           "variants": {"good": {"body": "[]"}, "bad": {"body": "{"}, "nil": {"body": ""}}},
          {"name": "cart-add", "request": {"method": "POST", "path": "/cart"}, "scenario": {"name": "cart", "then": "has-item"},
           "variants": {"good": {"status": 201, "body": "added"}, "bad": {"body": "{"}, "nil": {"body": ""},
                        "broken": {"fault": "reset"}}},
          {"name": "cart-full", "request": {"path": "/cart"}, "scenario": {"name": "cart", "when": "has-item"},
           "variants": {"good": {"body": "[1]"}, "bad": {"body": "{"}, "nil": {"body": ""}}},
          {"name": "checkout", "request": {"method": "POST", "path": "/checkout"},
           "scenario": {"name": "cart", "when": "has-item", "then": "paid"},
           "variants": {"good": {"body": "paid"}, "bad": {"body": "{"}, "nil": {"body": ""}}},
          {"name": "login", "request": {"method": "POST", "path": "/login"}, "scenario": {"name": "session", "then": "in"},
           "variants": {"good": {"body": "ok"}, "bad": {"body": "{"}, "nil": {"body": ""}}}
        ]}
        """#

    private func post(_ target: String) -> String { StubTestSupport.post(target, "") }

    @Test func aCart_answersByItsStateAndMovesOn() async throws {
        try await withServer(stubs: Self.stubs) { server in
            let steps = [get("/cart"), post("/cart"), get("/cart"), get("/cart"), post("/checkout"), get("/cart")]
            var answers: [RawResponse] = []
            for step in steps { answers.append(try await exchange(server, step)) }
            #expect(answers.map(\.status) == [200, 201, 200, 200, 200, 404])
            #expect(
                answers.map { $0.header("X-Stub-Name") } == [
                    "cart-empty", "cart-add", "cart-full", "cart-full", "checkout", nil,
                ])
            #expect(server.scenarios == ["cart": "paid", "session": "start"])
        }
    }

    @Test func aStubThatMissedOnlyByState_saysSoInThe404() async throws {
        try await withServer(stubs: Self.stubs) { server in
            try server.setScenario("cart", to: "paid")
            let response = try await exchange(server, get("/cart"))
            #expect(response.status == 404)
            let misses = try #require(server.unmatchedRequests().first?.closest)
            #expect(
                misses.first { $0.stub == "cart-empty" }?.mismatches == [
                    .init(field: "scenario.cart", expected: #"state "start""#, actual: #"state "paid""#)
                ])
            #expect(
                misses.first { $0.stub == "cart-full" }?.mismatches == [
                    .init(field: "scenario.cart", expected: #"state "has-item""#, actual: #"state "paid""#)
                ])
            #expect(response.text.contains(#""field" : "scenario.cart""#))
        }
    }

    @Test func aFault_stillMovesTheScenarioButAMissingVariantDoesNot() async throws {
        try await withServer(stubs: Self.stubs) { server in
            _ = try await exchange(
                server, post("/cart").replacingOccurrences(of: "\r\n\r\n", with: "\r\nX-Stub-Variant: nope\r\n\r\n"))
            #expect(server.scenarios["cart"] == "start", "a 400 for a missing variant answers nothing")
            let client = try await RawHTTPClient(port: server.port)
            try await client.send(
                post("/cart").replacingOccurrences(of: "\r\n\r\n", with: "\r\nX-Stub-Variant: broken\r\n\r\n"))
            #expect(await client.readEndsWithReset())
            #expect(server.scenarios["cart"] == "has-item", "the stub answered, with a fault")
        }
    }

    @Test func adminAPI_listsSetsAndResetsScenarios() async throws {
        try await withServer(stubs: Self.stubs) { server in
            let list = try await exchange(server, get("/__stub/scenarios")).json()
            let scenarios = try #require(list["scenarios"] as? [[String: Any]])
            #expect(scenarios.map { $0["name"] as? String } == ["cart", "session"])
            #expect(scenarios[0]["states"] as? [String] == ["start", "has-item", "paid"])
            #expect(scenarios[0]["stubs"] as? [String] == ["cart-empty", "cart-add", "cart-full", "checkout"])

            let set = try await exchange(server, put("/__stub/scenarios/cart/state", #"{"state": "has-item"}"#))
            #expect(set.status == 200)
            #expect(try await exchange(server, get("/cart")).header("X-Stub-Name") == "cart-full")

            let stubs = try await exchange(server, get("/__stub/stubs")).json()["stubs"] as? [[String: Any]]
            let full = try #require(
                stubs?.first { $0["name"] as? String == "cart-full" }?["scenario"] as? [String: String])
            #expect(full == ["name": "cart", "when": "has-item", "state": "has-item"])

            let typo = try await exchange(server, put("/__stub/scenarios/cart/state", "has-items"))
            #expect(typo.status == 400)
            #expect(typo.text.contains(#"scenario \"cart\" has no state \"has-items\"; states: start, has-item, paid"#))
            #expect(try await exchange(server, put("/__stub/scenarios/basket/state", "x")).status == 404)
            #expect(try await exchange(server, put("/__stub/scenarios/cart/state", "")).status == 400)

            _ = try await exchange(server, post("/login"))
            #expect(try await exchange(server, post("/__stub/scenarios/cart/reset")).status == 200)
            #expect(server.scenarios == ["cart": "start", "session": "in"])
            #expect(try await exchange(server, post("/__stub/scenarios/reset")).status == 200)
            #expect(server.scenarios == ["cart": "start", "session": "start"])
            try server.setScenario("cart", to: "paid")
            #expect(try await exchange(server, post("/__stub/reset")).status == 200)
            #expect(server.scenarios["cart"] == "start", "a full reset resets scenarios too")
        }
    }

    @Test func reload_keepsScenarioStates() async throws {
        try await withServer(stubs: Self.stubs) { server in
            _ = try await exchange(server, post("/cart"))
            try server.reload()
            #expect(server.scenarios["cart"] == "has-item")
            #expect(try await exchange(server, get("/cart")).header("X-Stub-Name") == "cart-full")
        }
    }

    @Test func programmaticAPI_throwsTypedErrors() async throws {
        try await withServer(stubs: Self.stubs) { server in
            #expect(throws: StubServerError.unknownScenario("basket", known: ["cart", "session"])) {
                try server.setScenario("basket", to: "start")
            }
            #expect(
                throws: StubServerError.unknownScenarioState("gone", scenario: "session", states: ["start", "in"])
            ) {
                try server.setScenario("session", to: "gone")
            }
            #expect(throws: StubServerError.unknownScenario("basket", known: ["cart", "session"])) {
                try server.resetScenario("basket")
            }
            try server.setScenario("session", to: "in")
            try server.resetScenario("session")
            #expect(server.scenarios["session"] == "start")
        }
    }

    private func put(_ target: String, _ body: String) -> String {
        StubTestSupport.post(target, body).replacingOccurrences(of: "POST ", with: "PUT ")
    }
}

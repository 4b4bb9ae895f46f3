import Foundation
import JSONModel
import StubTestSupport
import TestTurns
import Testing

@testable import StubCore

/// Body matchers, scenarios, pacing and random faults as written in `stubs.json`: what loads and every mistake.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct StubFileValidationTests {
    private static let required = #""good": {"body": "g"}, "bad": {"body": "b"}, "nil": {"body": ""}"#

    private func load(_ stubs: String) throws -> (catalog: StubCatalog?, problems: [String]) {
        try TemporaryFixtures.load(["api/stubs.json": stubs])
    }

    private func stub(request: String = #""path": "/a""#, variant: String = "{}", extra: String = "") -> String {
        #"{"stubs": [{"name": "a", "request": {\#(request)}, "variants": {\#(Self.required), "x": \#(variant)}\#(extra)}]}"#
    }

    @Test func everyNewKey_loadsIntoTheModel() throws {
        let request = #"""
            "method": "POST", "path": "/a",
            "body": {"json": {"user": {"id": 7}}, "exact": true, "jsonPath": {"items[0].id": {"matches": "^[0-9]+$"}},
                     "form": {"name": "ada"}, "equals": "x", "matches": "^x"}
            """#
        let variant = #"""
            {"firstByteDelayMs": 20, "network": "3g",
             "faults": {"rate": 0.25, "kinds": ["reset", "drop"], "delayMs": {"min": 5, "max": 9}}}
            """#
        let scenario = #", "scenario": {"name": "cart", "when": "empty", "then": "has-item"}"#
        let (catalog, problems) = try load(stub(request: request, variant: variant, extra: scenario))
        #expect(problems == [])
        let loaded = try #require(catalog?.stub(named: "a"))
        #expect(loaded.scenario == StubScenario(name: "cart", when: "empty", then: "has-item"))
        let body = try #require(loaded.request.body)
        #expect(body.conditions.count == 5)
        #expect(body.conditions.contains(.json(.object(["user": .object(["id": .number(7)])]), exact: true)))
        #expect(body.conditions.contains(.jsonPath(try JSONPath("items[0].id"), .matches(try .init("^[0-9]+$")))))
        #expect(body.conditions.contains(.form("name", .exact("ada"))))
        let x = try #require(loaded.variants["x"])
        #expect(x.firstByteDelayMs == 20, "an explicit first-byte delay wins over the profile's")
        #expect(x.pacing == .throttle(bytesPerSecond: NetworkProfile.threeG.bytesPerSecond))
        #expect(x.faults == RandomFaults(rate: 0.25, kinds: [.reset, .drop], delayMs: 5...9))
        #expect(catalog?.scenarios == ["cart": ["start", "empty", "has-item"]])
    }

    @Test func networkProfile_bringsItsLatencyAndLikeInheritsPacing() throws {
        let stubs = #"""
            {"stubs": [{"name": "a", "request": {"path": "/a"}, "variants": {\#(Self.required),
              "slow": {"network": "edge"}, "slower": {"like": "slow", "status": 201},
              "dribble": {"chunked": {"size": 4, "delayMs": 30}}}}]}
            """#
        let (catalog, problems) = try load(stubs)
        #expect(problems == [])
        let variants = try #require(catalog?.stub(named: "a")?.variants)
        #expect(variants["slow"]?.firstByteDelayMs == 400)
        #expect(variants["slower"]?.pacing == .throttle(bytesPerSecond: 30_000))
        #expect(variants["slower"]?.status == 201)
        #expect(variants["dribble"]?.pacing == .chunked(size: 4, delayMs: 30))
    }

    @Test(arguments: [
        (
            #""path": "/a", "body": {"jsn": {}}"#,
            "stubs[0].request.body.jsn: unknown key (known: equals, matches, json, exact, jsonPath, form)"
        ),
        (#""path": "/a", "body": {}"#, "stubs[0].request.body: must hold equals, matches, json, jsonPath or form"),
        (#""path": "/a", "body": "text""#, "stubs[0].request.body: must be an object, not a string"),
        (#""path": "/a", "body": {"matches": "("}"#, #"stubs[0].request.body.matches: invalid regular expression "(""#),
        (#""path": "/a", "body": {"equals": 5}"#, "stubs[0].request.body.equals: must be a string, not a number"),
        (
            #""path": "/a", "body": {"exact": true}"#,
            #"stubs[0].request.body.exact: must be true or false, next to "json""#
        ),
        (
            #""path": "/a", "body": {"json": {}, "exact": "yes"}"#,
            #"stubs[0].request.body.exact: must be true or false, next to "json""#
        ),
        (#""path": "/a", "body": {"jsonPath": {}}"#, "stubs[0].request.body.jsonPath: must name at least one path"),
        (
            #""path": "/a", "body": {"jsonPath": {"a..b": "1"}}"#,
            #"stubs[0].request.body.jsonPath["a..b"]: invalid path: empty segment in "a..b""#
        ),
        (
            #""path": "/a", "body": {"jsonPath": {"items[x]": "1"}}"#,
            #"stubs[0].request.body.jsonPath["items[x]"]: invalid path: index must be a whole number, not "x""#
        ),
        (
            #""path": "/a", "body": {"jsonPath": {"items[0": "1"}}"#,
            #"stubs[0].request.body.jsonPath["items[0"]: invalid path: expected [INDEX]"#
        ),
        (
            #""path": "/a", "body": {"jsonPath": {"id": 7}}"#,
            #"stubs[0].request.body.jsonPath.id: must be a string, {"matches": REGEX}"#
        ),
        (#""path": "/a", "body": {"form": {}}"#, "stubs[0].request.body.form: must name at least one field"),
        (
            #""path": "/a", "body": {"form": {"user": {"present": false}}}"#,
            #"stubs[0].request.body.form.user: must be a string, {"matches": REGEX}"#
        ),
    ])
    func bodyMatcherMistakes_areReportedByKeyPath(_ request: String, expected: String) throws {
        let (_, problems) = try load(stub(request: request))
        #expect(problems.contains { $0.hasPrefix("api/stubs.json: " + expected) }, "\(problems)")
    }

    @Test(arguments: [
        (#"{"": {"body": "x"}}"#, #"stubs[0].variants[""]: variant names must be letters"#),
        (#"{"a.b": {"body": "x", "like": "c"}}"#, #"stubs[0].variants["a.b"].like: no variant named "c""#),
    ])
    func oddKeys_areQuotedInKeyPaths(_ variants: String, expected: String) throws {
        let stubs =
            #"{"stubs": [{"name": "a", "request": {"path": "/a"}, "variants": {"good": {"body": "g"}, "bad": {"body": "b"}, "nil": {"body": ""}, "x": {"headers": {"X Bad": "1"}}}}]}"#
        let (_, headerProblems) = try load(stubs)
        #expect(
            headerProblems.contains {
                $0.hasPrefix(#"api/stubs.json: stubs[0].variants.x.headers["X Bad"]: invalid header name"#)
            })
        let merged =
            #"{"stubs": [{"name": "a", "request": {"path": "/a"}, "variants": "# + variants.dropLast()
            + #", \#(Self.required)}}]}"#
        let (_, problems) = try load(merged)
        #expect(problems.contains { $0.hasPrefix("api/stubs.json: " + expected) }, "\(problems)")
    }

    @Test(arguments: [
        (#", "scenario": "cart""#, "stubs[0].scenario: must be an object, not a string"),
        (#", "scenario": {"when": "a"}"#, "stubs[0].scenario.name: missing"),
        (#", "scenario": {"name": "my cart"}"#, #"stubs[0].scenario.name: "my cart" must be letters, digits"#),
        (#", "scenario": {"name": "cart", "then": 2}"#, "stubs[0].scenario.then: must be a string, not a number"),
        (#", "scenario": {"name": "cart", "when": "a b"}"#, #"stubs[0].scenario.when: "a b" must be letters"#),
        (
            #", "scenario": {"name": "cart", "state": "a"}"#,
            "stubs[0].scenario.state: unknown key (known: name, when, then)"
        ),
    ])
    func scenarioMistakes_areReportedByKeyPath(_ extra: String, expected: String) throws {
        let (_, problems) = try load(stub(extra: extra))
        #expect(problems.contains { $0.hasPrefix("api/stubs.json: " + expected) }, "\(problems)")
    }

    @Test(arguments: [
        (
            #"{"throttle": {"bytesPerSecond": 0}}"#,
            "variants.x.throttle.bytesPerSecond: must be an integer in 1...1000000000"
        ),
        (#"{"throttle": {}}"#, "variants.x.throttle.bytesPerSecond: missing"),
        (#"{"throttle": {"rate": 5}}"#, "variants.x.throttle.rate: unknown key (known: bytesPerSecond)"),
        (#"{"network": "5g"}"#, #"variants.x.network: unknown network "5g"; use one of edge, 3g, lte, wifi"#),
        (#"{"network": 3}"#, "variants.x.network: must be a string, not a number"),
        (
            #"{"network": "3g", "throttle": {"bytesPerSecond": 5}}"#,
            "variants.x: has throttle and network; keep one way of pacing the body"
        ),
        (#"{"chunked": {"delayMs": 5}}"#, "variants.x.chunked.size: missing"),
        (#"{"chunked": {"size": 0}}"#, "variants.x.chunked.size: must be an integer in 1...16777216"),
        (#"{"chunked": {"size": 2, "delayMs": -1}}"#, "variants.x.chunked.delayMs: must be an integer in 0...600000"),
        (#"{"firstByteDelayMs": 1.5}"#, "variants.x.firstByteDelayMs: must be an integer in 0...600000"),
        (#"{"faults": {"rate": 2, "kinds": ["drop"]}}"#, "variants.x.faults.rate: must be a number from 0 to 1"),
        (#"{"faults": {"rate": 0.5}}"#, "variants.x.faults.kinds: missing: which faults to draw"),
        (
            #"{"faults": {"rate": 0.5, "kinds": []}}"#,
            "variants.x.faults.kinds: must be a non-empty array of fault names"
        ),
        (
            #"{"faults": {"rate": 0.5, "kinds": ["explode"]}}"#,
            #"variants.x.faults.kinds[0]: unknown fault "explode"; use one of drop"#
        ),
        (#"{"faults": {"delayMs": {"min": 9, "max": 1}}}"#, "variants.x.faults.delayMs: min 9 is more than max 1"),
        (#"{"faults": {"delayMs": {"min": 9}}}"#, "variants.x.faults.delayMs.max: missing"),
        (#"{"faults": {}}"#, "variants.x.faults: must hold rate and kinds, delayMs, or both"),
        (
            #"{"faults": {"rate": 0.1, "kinds": ["drop"], "seed": 4}}"#,
            "variants.x.faults.seed: unknown key (known: rate, kinds, delayMs)"
        ),
    ])
    func pacingAndFaultMistakes_areReportedByKeyPath(_ variant: String, expected: String) throws {
        let (_, problems) = try load(stub(variant: variant))
        #expect(problems.contains { $0.hasPrefix("api/stubs.json: stubs[0]." + expected) }, "\(problems)")
    }
}

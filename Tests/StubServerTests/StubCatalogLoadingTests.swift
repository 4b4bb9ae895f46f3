import Foundation
import HTTPEngine
import HTTPMessages
import StubTestSupport
import TestTurns
import Testing

@testable import StubCore
@testable import StubServer

@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct StubCatalogLoadingTests {
    private static let required = #""good": {"body": "g"}, "bad": {"body": "b"}, "nil": {"body": ""}"#

    private func problems(_ stubs: String, files: [String: String] = [:]) throws -> [String] {
        var all = files.mapValues { $0 }
        all["api/stubs.json"] = stubs
        let fixtures = try TemporaryFixtures(all)
        defer { fixtures.remove() }
        return fixtures.problems()
    }

    @Test func mockData_loadsWithoutProblems() throws {
        let folder = try #require(StubCatalog.findFolder())
        let catalog = try StubCatalog.load(from: folder)
        #expect(catalog.stubs.count >= 2)
        for stub in catalog.stubs {
            #expect(Set(["good", "bad", "nil"]).isSubset(of: stub.variants.keys), "\(stub.name)")
        }
        #expect(catalog.stub(named: "desserts")?.hosts == ["themealdb.com", "www.themealdb.com"])
        #expect(catalog.stub(named: "jack-johnson-page-1")?.hosts == ["itunes.apple.com"])
    }

    @Test func testCatalog_loadsEveryField() throws {
        let fixtures = try TestCatalog.fixtures()
        defer { fixtures.remove() }
        let catalog = try StubCatalog.load(from: fixtures.root)
        let search = try #require(catalog.stub(named: "search"))
        #expect(search.api == "api")
        #expect(search.file == "api/stubs.json")
        #expect(search.request.method == "GET")
        #expect(search.variants["slow"]?.delayMs == 150)
        #expect(search.variants["slow"]?.template == true, "like inherits template")
        #expect(search.variants["truncate"]?.fault == .truncate)
        #expect(search.variants["server-error"]?.status == 503)
        #expect(search.variants["server-error"]?.header("Retry-After") == "1")
        #expect(search.variants["server-error"]?.header("Content-Type") == "text/plain; charset=utf-8")
        let any = try #require(catalog.stub(named: "search-any"))
        #expect(String(decoding: any.variants["good"]!.body, as: UTF8.self) == "{\"any\":true}\n")
        #expect(any.variants["good"]?.header("Content-Type") == "application/json")
        #expect(catalog.stub(named: "flaky")?.sequence == ["server-error", "server-error", "good"])
    }

    @Test(arguments: [
        (
            #"{"stubs": [{"name": "a", "request": {"path": "/a"}, "variants": {"good": {"bodyFile": "top.good.json"}, "bad": {"body": ""}, "nil": {"body": ""}}}]}"#,
            "api/stubs.json: stubs[0].variants.good.bodyFile: no such file top.good.json"
        ),
        (
            #"{"stubs": [{"name": "a", "request": {"path": "/a"}, "variants": {"good": {"bodyFile": "../../../../etc/passwd"}, "bad": {"body": ""}, "nil": {"body": ""}}}]}"#,
            "api/stubs.json: stubs[0].variants.good.bodyFile: ../../../../etc/passwd is outside the fixtures folder"
        ),
        (
            #"{"stubs": [{"name": "a", "request": {"path": "/a"}, "variants": {"good": {"bodyFile": "/etc/passwd"}, "bad": {"body": ""}, "nil": {"body": ""}}}]}"#,
            "api/stubs.json: stubs[0].variants.good.bodyFile: must be a path relative to api/"
        ),
        (
            #"{"stubs": [{"name": "a", "request": {"path": "/a"}, "variants": {"good": {"body": ""}}}]}"#,
            "api/stubs.json: stubs[0].variants: missing required variants bad, nil"
        ),
        (
            #"{"stubs": [{"name": "a", "request": {"path": "/a", "query": {"x": {"matches": "("}}}, "variants": {\#(required)}}]}"#,
            #"api/stubs.json: stubs[0].request.query.x.matches: invalid regular expression "(""#
        ),
        (
            #"{"stubs": [{"name": "a", "request": {"path": "/a", "headers": {"x": 5}}, "variants": {\#(required)}}]}"#,
            #"api/stubs.json: stubs[0].request.headers.x: must be a string, {"matches": REGEX}, {"present": true} or {"absent": true}"#
        ),
        (
            #"{"stubs": [{"name": "a", "request": {"path": "/a"}, "variants": {\#(required), "x": {"like": "y"}, "y": {"like": "x"}}}]}"#,
            "api/stubs.json: stubs[0].variants.x.like: cycle: x -> y -> x"
        ),
        (
            #"{"stubs": [{"name": "a", "request": {"path": "/a"}, "variants": {\#(required), "x": {"fault": "explode"}}}]}"#,
            #"api/stubs.json: stubs[0].variants.x.fault: unknown fault "explode"; use one of drop, reset, truncate, malformed, hang"#
        ),
        (
            #"{"stubs": [{"name": "a", "request": {"path": "/a"}, "variants": {\#(required), "x": {"bodyfile": "a.json"}}}]}"#,
            "api/stubs.json: stubs[0].variants.x.bodyfile: unknown key (known: status, headers, body, bodyFile, template, "
                + "delayMs, fault, like, generated, firstByteDelayMs, throttle, network, chunked, faults, events, eventsFile, "
                + "keepAliveMs, dropAfterEvents, script, turn)"
        ),
        (
            #"{"stubs": [{"name": "a", "request": {"path": "/a"}, "variants": {\#(required), "x": {"generated": 1}}}]}"#,
            "api/stubs.json: stubs[0].variants.x.generated: must be true or false"
        ),
        (
            #"{"stubs": [{"name": "a", "request": {"path": "/a"}, "variants": {\#(required), "x": {"status": 700}}}]}"#,
            "api/stubs.json: stubs[0].variants.x.status: must be an integer in 100...599"
        ),
        (
            #"{"stubs": [{"name": "a", "request": {"path": "/a"}, "variants": {\#(required), "x": {"headers": {"Content-Length": "3"}}}}]}"#,
            #"api/stubs.json: stubs[0].variants.x.headers.Content-Length: set by the server from the body; remove it (use "fault" to break framing)"#
        ),
        (
            #"{"stubs": [{"name": "a", "request": {"path": "a?x=1"}, "variants": {\#(required)}}]}"#,
            #"api/stubs.json: stubs[0].request.path: "a?x=1" must start with '/' and hold no query (use "query")"#
        ),
        (
            #"{"stubs": [{"name": "a", "request": {"path": "/a"}, "variants": {\#(required)}, "sequence": ["good", "slow"]}]}"#,
            #"api/stubs.json: stubs[0].sequence[1]: no variant named "slow""#
        ),
        (
            #"{"stubs": [{"name": "a b", "request": {"path": "/a"}, "variants": {\#(required)}}]}"#,
            #"api/stubs.json: stubs[0].name: "a b" must be letters, digits, '.', '_' or '-'"#
        ),
        (
            #"{"stubs": [{"name": "a", "request": {"path": "/a"}, "variants": {\#(required)}}, {"name": "a", "request": {"path": "/b"}, "variants": {\#(required)}}]}"#,
            #"api/stubs.json: stubs[1].name: duplicate stub name "a", also in api/stubs.json"#
        ),
        (#"{"stubs": {}}"#, "api/stubs.json: stubs: must be an array, not an object"),
        (
            #"{"hosts": ["https://itunes.apple.com"], "stubs": []}"#,
            #"api/stubs.json: hosts[0]: must be a host name such as "itunes.apple.com", without scheme, port or path, not "https://itunes.apple.com""#
        ),
        (#"{"hosts": [], "stubs": []}"#, "api/stubs.json: hosts: must be a non-empty array of host names"),
        (
            #"{"hosts": "itunes.apple.com", "stubs": []}"#,
            "api/stubs.json: hosts: must be a non-empty array of host names"
        ),
        (#"{"hosts": ["a.example:8080"], "stubs": []}"#, #"api/stubs.json: hosts[0]: must be a host name"#),
        (#"{"stubs": [}"#, "api/stubs.json: invalid JSON"),
        (
            #"{"stubs": [{"name": "a", "request": {"path": "/a"}, "variants": {\#(required), "x": {"turn": {"format": "claude", "id": "t", "model": "m", "text": ["a"]}}}}]}"#,
            #"api/stubs.json: stubs[0].variants.x.turn.format: unknown format "claude"; use one of openai-chat, openai-responses, anthropic, gemini"#
        ),
        (
            #"{"stubs": [{"name": "a", "request": {"path": "/a"}, "variants": {\#(required), "x": {"turn": {"format": "gemini", "id": "t", "model": "m"}}}}]}"#,
            "api/stubs.json: stubs[0].variants.x.turn: a turn needs text or a tool call"
        ),
        (
            #"{"stubs": [{"name": "a", "request": {"path": "/a"}, "variants": {\#(required), "x": {"turn": {"format": "anthropic", "id": "t", "model": "m", "toolCalls": [{"id": "c", "name": "f", "arguments": ["{\"a\":", "1"]}]}}}}]}"#,
            #"api/stubs.json: stubs[0].variants.x.turn.toolCalls[0].arguments: the pieces must join into a JSON object; they join into {"a":1"#
        ),
        (
            #"{"stubs": [{"name": "a", "request": {"path": "/a"}, "variants": {\#(required), "x": {"turn": {"format": "openai-chat", "stream": "json-array", "id": "t", "model": "m", "text": ["a"]}}}}]}"#,
            #"api/stubs.json: stubs[0].variants.x.turn.stream: must be true, false or (for gemini) "json-array""#
        ),
        (
            #"{"stubs": [{"name": "a", "request": {"path": "/a"}, "variants": {\#(required), "x": {"body": "b", "turn": {"format": "gemini", "id": "t", "model": "m", "text": ["a"]}}}}]}"#,
            "api/stubs.json: stubs[0].variants.x.body: a turn's answer is made from the turn; remove body"
        ),
    ])
    func load_reportsEachProblemWithFileAndKeyPath(_ stubs: String, expected: String) throws {
        let found = try problems(stubs)
        #expect(found.contains { $0.hasPrefix(expected) }, "\(found)")
    }

    @Test func load_reportsEveryProblemNotJustTheFirst() throws {
        let found = try problems(
            #"{"stubs": [{"name": "a", "request": {"path": "/a"}, "variants": {"good": {"bodyFile": "missing.json"}, "bad": {"status": "x"}, "nil": {"fault": "nope"}}}, {"request": {}}]}"#
        )
        #expect(
            found == [
                "api/stubs.json: stubs[0].variants.bad.status: must be an integer in 100...599",
                "api/stubs.json: stubs[0].variants.good.bodyFile: no such file missing.json",
                #"api/stubs.json: stubs[0].variants.nil.fault: unknown fault "nope"; use one of drop, reset, truncate, malformed, hang"#,
                "api/stubs.json: stubs[1].name: missing",
                "api/stubs.json: stubs[1].request.path: missing",
                "api/stubs.json: stubs[1].variants: missing",
            ])
    }

    /// A missing required variant is reported beside the stub's other problems, at the stub's own index, not only
    /// once they are fixed.
    @Test func aMissingVariant_isReportedInTheSamePassAsTheStubsOtherProblems() throws {
        let found = try problems(
            #"{"stubs": [{"name": "a", "variants": {"good": {"status": 700}, "bad": {"body": ""}}}, {"name": "b", "request": {"path": "/b"}, "variants": {"good": {}}}]}"#
        )
        #expect(
            found == [
                "api/stubs.json: stubs[0].request: missing",
                "api/stubs.json: stubs[0].variants.good.status: must be an integer in 100...599",
                "api/stubs.json: stubs[0].variants: missing required variant nil",
                "api/stubs.json: stubs[1].variants: missing required variants bad, nil",
            ])
    }

    @Test func load_rejectsASymlinkLeadingOutOfTheFolder() throws {
        let fixtures = try TemporaryFixtures([
            "api/stubs.json":
                #"{"stubs": [{"name": "a", "request": {"path": "/a"}, "variants": {"good": {"bodyFile": "link.json"}, "bad": {"body": ""}, "nil": {"body": ""}}}]}"#
        ])
        defer { fixtures.remove() }
        try FileManager.default.createSymbolicLink(
            atPath: fixtures.root.appendingPathComponent("api/link.json").path, withDestinationPath: "/etc/hostname")
        #expect(
            fixtures.problems() == [
                "api/stubs.json: stubs[0].variants.good.bodyFile: link.json is outside the fixtures folder"
            ])
    }

    @Test func load_reportsAMissingFolderAndAnEmptyOne() throws {
        let missing = URL(fileURLWithPath: "/nonexistent/fixtures")
        #expect(throws: CatalogError.self) { try StubCatalog.load(from: missing) }
        let empty = try TemporaryFixtures(["README.md": "nothing here"])
        defer { empty.remove() }
        #expect(empty.problems().first?.contains("no API folder with a stubs.json") == true)
    }

    @Test func singleFile_answersEveryPathWithTheFile() throws {
        let fixtures = try TemporaryFixtures(["x.json": "{}"])
        defer { fixtures.remove() }
        let catalog = try StubCatalog.singleFile(fixtures.root.appendingPathComponent("x.json"))
        let request = try Request(method: "GET", target: "/any/path?q=1")
        guard case .matched(let stub, _) = catalog.match(request) else {
            Issue.record("no match")
            return
        }
        #expect(stub.variants["good"]?.body == Array("{}".utf8))
        #expect(stub.variants["good"]?.header("Content-Type") == "application/json")
    }
}

import Foundation
import HTTPMessages
import StubTestSupport
import TestTurns
import Testing

@testable import StubContracts
@testable import StubCore

/// Requests to stubs that stand for an OpenAPI operation, checked against it: parameters (required, type, enum,
/// bounds) and the request body (required, media type, schema). The stub still answers; the journal keeps what
/// the operation would refuse.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct RequestContractCheckerTests {
    static let document = """
        openapi: 3.0.3
        paths:
          /pets:
            get:
              operationId: listPets
              parameters:
                - {name: limit, in: query, required: true, schema: {type: integer, minimum: 1, maximum: 100}}
                - {name: tags, in: query, schema: {type: array, items: {type: string, enum: [cat, dog]}}}
                - {name: X-Request-ID, in: header, required: true, schema: {type: string, format: uuid}}
              responses:
                "200": {description: ok}
            post:
              operationId: createPet
              requestBody:
                required: true
                content:
                  application/json:
                    schema:
                      type: object
                      required: [name]
                      properties:
                        name: {type: string}
                        age: {type: integer, minimum: 0}
              responses:
                "201": {description: created}
          /pets/{petId}:
            parameters:
              - {name: petId, in: path, required: true, schema: {type: integer}}
            get:
              responses:
                "200": {description: ok}
        """

    static let stubs = """
        {"stubs": [
          {"name": "list", "openapi": {"spec": "../pets.yaml", "operationId": "listPets"},
           "request": {"method": "GET", "path": "/pets"},
           "variants": {"good": {"body": "[]"}, "bad": {"body": "["}, "nil": {"body": ""}}},
          {"name": "create", "openapi": {"spec": "../pets.yaml", "operationId": "createPet"},
           "request": {"method": "POST", "path": "/pets"},
           "variants": {"good": {"status": 201, "body": "{}"}, "bad": {"body": "{"}, "nil": {"body": ""}}},
          {"name": "one", "openapi": {"spec": "../pets.yaml", "operation": "GET /pets/{petId}"},
           "request": {"method": "GET", "path": "/pets/{petId}"},
           "variants": {"good": {"body": "{}"}, "bad": {"body": "{"}, "nil": {"body": ""}}}
        ]}
        """

    /// A fixtures folder with the document beside its one API folder, removed by the caller.
    static func fixtures() throws -> TemporaryFixtures {
        try TemporaryFixtures(["pets.yaml": document, "pets/stubs.json": stubs])
    }

    /// The catalog of `fixtures` and a state that checks, which reads the document when it first checks.
    static func state(_ fixtures: TemporaryFixtures) throws -> StubState {
        let catalog = try StubCatalog.load(from: fixtures.root)
        var state = StubState(catalog: catalog, journal: RequestJournal(capacity: 8))
        state.requestChecker = RequestContractChecker.forCatalog(catalog)
        return state
    }

    static let id = "X-Request-ID: 3fa85f64-5717-4562-b3fc-2c963f66afa6"

    @Test(
        arguments: [
            ("GET", "/pets?limit=10", [id], "", nil),
            ("GET", "/pets?limit=10&tags=cat&tags=dog", [id], "", nil),
            (
                "GET", "/pets?limit=10&tags=cat,dog", [id], "",
                [#"query.tags[0]: expected one of "cat", "dog", got "cat,dog""#]
            ),
            ("GET", "/pets", [id], "", ["query.limit: missing (required)"]),
            ("GET", "/pets?limit=ten", [id], "", [#"query.limit: expected integer, got "ten""#]),
            ("GET", "/pets?limit=0", [id], "", ["query.limit: expected at least 1, got 0"]),
            ("GET", "/pets?limit=5&tags=cow", [id], "", [#"query.tags[0]: expected one of "cat", "dog", got "cow""#]),
            ("GET", "/pets?limit=5", [], "", ["header.X-Request-ID: missing (required)"]),
            ("GET", "/pets?limit=5", ["X-Request-ID: 12"], "", [#"header.X-Request-ID: "12" is not a valid uuid"#]),
            ("GET", "/pets/7", [], "", nil),
            ("GET", "/pets/seven", [], "", [#"path.petId: expected integer, got "seven""#]),
            ("POST", "/pets", ["Content-Type: application/json"], #"{"name": "Rex"}"#, nil),
            ("POST", "/pets", [], "", ["body: missing (required)"]),
            (
                "POST", "/pets", ["Content-Type: application/json"], #"{"age": -1}"#,
                ["body.name: missing (required)", "body.age: expected at least 0, got -1"]
            ),
            (
                "POST", "/pets", ["Content-Type: text/plain"], "Rex",
                [#"header.Content-Type: "text/plain" is not what the operation accepts (application/json)"#]
            ),
            ("POST", "/pets", ["Content-Type: application/json; charset=utf-8"], "{", ["body: not JSON"]),
        ] as [(String, String, [String], String, [String]?)])
    func aRequest_isCheckedAgainstItsOperation(
        _ method: String, _ target: String, _ headers: [String], _ body: String, _ expected: [String]?
    ) throws {
        let fixtures = try Self.fixtures()
        defer { fixtures.remove() }
        var state = try Self.state(fixtures)
        var fields = HTTPHeaders()
        for header in headers {
            let parts = header.split(separator: ":", maxSplits: 1)
            fields.add(String(parts[0]), String(parts[1]).trimmingCharacters(in: .whitespaces))
        }
        let request = try Request(method: method, target: target, headers: fields, body: Array(body.utf8))
        let decision = state.decide(request)
        #expect(decision.stubName != nil, "the stub still answers")
        #expect(decision.contractViolations == expected)
        #expect(state.journal.entries(matching: JournalQuery()).last?.contractViolations == expected)
    }

    @Test func withoutAChecker_nothingIsChecked() throws {
        let fixtures = try Self.fixtures()
        defer { fixtures.remove() }
        var state = try Self.state(fixtures)
        state.requestChecker = nil
        let decision = state.decide(try Request(method: "GET", target: "/pets?limit=ten"))
        #expect(decision.stubName == "list")
        #expect(decision.contractViolations == nil)
    }
}

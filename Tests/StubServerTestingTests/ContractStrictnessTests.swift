import Foundation
import StubServer
import StubServerInProcess
import StubServerTesting
import StubTestSupport
import TestTurns
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A request the API's contract refuses fails a strict test, over both transports, though the stub answers it;
/// `contracts: false` turns the check off.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct ContractStrictnessTests {
    /// A fixtures folder whose one stub stands for `listAlbums` of a document beside it (limit: integer >= 1).
    static func fixtures() throws -> TemporaryFixtures {
        let document = """
            openapi: 3.1.0
            paths:
              /albums:
                get:
                  operationId: listAlbums
                  parameters:
                    - {name: limit, in: query, required: true, schema: {type: integer, minimum: 1}}
                  responses:
                    "200": {description: ok, content: {application/json: {schema: {type: array}}}}
            """
        let stubs = """
            {"hosts": ["catalog.example.com"], "stubs": [{"name": "albums",
              "openapi": {"spec": "../catalog.yaml", "operationId": "listAlbums"},
              "request": {"method": "GET", "path": "/albums", "query": {"limit": {"present": true}}},
              "variants": {"good": {"body": "[]"}, "bad": {"body": "[", "generated": true},
                           "nil": {"body": "", "generated": true}}}]}
            """
        return try TemporaryFixtures(["catalog.yaml": document, "catalog/stubs.json": stubs])
    }

    enum Transport: String, CaseIterable {
        case socket, inProcess
    }

    /// Runs `body` in the trait's scope for `transport`, then fetches `/albums?limit=...` and returns the status.
    static func fetch(_ limit: String, over transport: Transport, contracts: Bool, test: Test) async throws {
        let temporary = try Self.fixtures()
        defer { temporary.remove() }
        let fixtures = temporary.root
        switch transport {
        case .socket:
            try await StubServerTrait.stubServer(fixtures: fixtures, contracts: contracts).provideScope(
                for: test, testCase: Test.Case.current
            ) {
                let server = try #require(TestStubs.current?.server)
                #expect(try await get("/albums?limit=\(limit)", from: server).status == 200)
            }
        case .inProcess:
            try await StubServerTrait.stubServer(transport: .inProcess, fixtures: fixtures, contracts: contracts)
                .provideScope(
                    for: test, testCase: Test.Case.current
                ) {
                    let stubs = try #require(TestStubs.current?.inProcess)
                    let url = URL(string: "https://catalog.example.com/albums?limit=\(limit)")!
                    let (_, response) = try await stubs.urlSession.data(from: url)
                    #expect((response as? HTTPURLResponse)?.statusCode == 200)
                }
        }
    }

    @Test(arguments: Transport.allCases)
    func aRequestTheContractRefuses_failsTheTest_naming(_ transport: Transport) async throws {
        let test = try #require(Test.current)
        try await withKnownIssue {
            try await Self.fetch("ten", over: transport, contracts: true, test: test)
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined(separator: "\n")
            return text.hasPrefix("GET /albums?limit=ten breaks the API contract of stub albums (answered 200):")
                && text.contains("\n  query.limit: expected integer, got \"ten\"")
                && issue.sourceLocation == test.sourceLocation
        }
    }

    @Test(arguments: Transport.allCases)
    func aRequestTheContractAccepts_passes(_ transport: Transport) async throws {
        try await Self.fetch("10", over: transport, contracts: true, test: try #require(Test.current))
    }

    @Test(arguments: Transport.allCases)
    func contractsOff_checksNothing(_ transport: Transport) async throws {
        try await Self.fetch("ten", over: transport, contracts: false, test: try #require(Test.current))
    }
}

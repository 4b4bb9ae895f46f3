import Foundation
import Locking
import StubServer
import StubServerTesting
import StubTestSupport
import TestTurns
import Testing

/// A resource stub that names an OpenAPI document and no operation: each request is checked against the operation
/// of its method and path, items created or patched against its request body's schema, and a refused one fails a
/// strict test like any request the contract refuses (the collection answers anyway).
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct ResourceContractTests {
    static let document = """
        openapi: 3.1.0
        paths:
          /favorites:
            get:
              responses: {"200": {description: ok}}
            post:
              requestBody:
                required: true
                content:
                  application/json:
                    schema: {type: object, required: [title], properties: {title: {type: string}}}
              responses: {"201": {description: created}}
          /favorites/{id}:
            patch:
              requestBody:
                content:
                  application/json:
                    schema: {type: object, properties: {title: {type: string}}}
              responses: {"200": {description: ok}}
        """
    static let stubs = #"""
        {"stubs": [{"name": "favorites", "request": {"path": "/favorites"}, "openapi": {"spec": "../catalog.yaml"},
          "resource": {}, "variants": {"good": {}, "bad": {"body": "{"}, "nil": {"body": ""}}}]}
        """#

    func send(_ method: String, _ target: String, _ body: String, to server: StubServer) async throws -> Int {
        let client = try await RawHTTPClient(port: server.port)
        try await client.send(
            "\(method) \(target) HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
                + "\(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
        return try await client.readResponse().status
    }

    @Test func eachRequest_isCheckedAgainstItsOperation_andARefusalFailsTheTest() async throws {
        let fixtures = try TemporaryFixtures(["catalog.yaml": Self.document, "catalog/stubs.json": Self.stubs])
        defer { fixtures.remove() }
        let test = try #require(Test.current)
        let reports = Lock<[String]>([])
        try await withKnownIssue {
            try await StubServerTrait.stubServer(fixtures: fixtures.root.path).provideScope(
                for: test, testCase: Test.Case.current
            ) {
                let server = try #require(TestStubs.current?.server)
                #expect(try await send("POST", "/favorites", #"{"title": "ok"}"#, to: server) == 201)
                #expect(try await send("POST", "/favorites", #"{"title": 5}"#, to: server) == 201, "answered anyway")
                #expect(try await send("PATCH", "/favorites/1", #"{"title": "renamed"}"#, to: server) == 200)
                #expect(try await send("DELETE", "/favorites/1", "", to: server) == 204)
                let violations = server.journal().map { $0.contractViolations ?? [] }
                #expect(violations[0].isEmpty && violations[2].isEmpty)
                #expect(violations[1].contains { $0.hasPrefix("body.title: expected string") }, "\(violations)")
                #expect(violations[3] == ["openapi: ../catalog.yaml has no operation DELETE /favorites/1"])
            }
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined(separator: "\n")
            reports.withLock { $0.append(text) }
            return text.contains("breaks the API contract of stub favorites")
        }
        let seen = reports.withLock { $0 }
        #expect(seen.count == 2, "the refused POST and the undocumented DELETE: \(seen)")
        #expect(
            seen.first?.hasPrefix("POST /favorites breaks the API contract of stub favorites (answered 201):") == true)
    }
}

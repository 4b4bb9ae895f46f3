import Foundation
package import StubServer

/// The fixtures most server tests run against: one API folder exercising every matcher, variant and fault.
package enum TestCatalog {
    package static let stubsJSON = """
        {
          "stubs": [
            {
              "name": "search",
              "request": {
                "path": "/search",
                "query": { "term": "jack johnson", "limit": { "matches": "^[0-9]+$" } }
              },
              "variants": {
                "good": {
                  "headers": { "Content-Type": "application/json" },
                  "body": "{\\"term\\":\\"{{query.term}}\\",\\"next\\":\\"{{baseURL}}/search\\"}",
                  "template": true
                },
                "bad": { "headers": { "Content-Type": "application/json" }, "body": "{\\"results\\": [" },
                "nil": { "headers": { "Content-Type": "application/json" }, "body": "" },
                "server-error": { "status": 503, "headers": { "Retry-After": "1" }, "body": "down" },
                "slow": { "like": "good", "delayMs": 150 },
                "drop": { "fault": "drop" },
                "reset": { "fault": "reset" },
                "truncate": { "like": "good", "fault": "truncate" },
                "malformed": { "fault": "malformed" },
                "hang": { "fault": "hang" }
              }
            },
            {
              "name": "search-any",
              "request": { "path": "/search", "query": { "term": { "absent": true } } },
              "variants": {
                "good": { "bodyFile": "any.good.json" },
                "bad": { "body": "[" },
                "nil": { "body": "" }
              }
            },
            {
              "name": "album",
              "request": { "path": "/albums/{id}" },
              "variants": {
                "good": { "body": "{\\"id\\":\\"{{path.id}}\\"}", "template": true },
                "bad": { "body": "{" },
                "nil": { "body": "" },
                "special": { "body": "special" }
              }
            },
            {
              "name": "album-new",
              "request": { "path": "/albums/new" },
              "variants": { "good": { "body": "new" }, "bad": { "body": "{" }, "nil": { "body": "" } }
            },
            {
              "name": "flaky",
              "request": { "path": "/flaky" },
              "variants": {
                "good": { "body": "ok" },
                "bad": { "body": "{" },
                "nil": { "body": "" },
                "server-error": { "status": 500, "body": "boom" }
              },
              "sequence": ["server-error", "server-error", "good"]
            },
            {
              "name": "upload",
              "request": { "method": "POST", "path": "/upload", "headers": { "Content-Type": { "matches": "json" } } },
              "variants": {
                "good": { "status": 201, "body": "created" },
                "bad": { "status": 201, "body": "{" },
                "nil": { "status": 201, "body": "" }
              }
            }
          ]
        }
        """

    /// A fresh folder holding the test catalog.
    package static func fixtures() throws -> TemporaryFixtures {
        try TemporaryFixtures(["api/stubs.json": stubsJSON, "api/any.good.json": "{\"any\":true}\n"])
    }
}

/// How long test servers keep an idle connection, or wait for the rest of a request, when the test is not about
/// those timeouts.
package let testServerTimeout = Duration.seconds(600)

/// Runs `body` against a server serving the test catalog, then stops the server and removes the folder.
///
/// The server waits `testServerTimeout` for a connection's next request, and for the rest of one, unless the test
/// chooses: a test's task may be kept from running for tens of seconds between its connect and its send on a busy
/// machine, and a server that closed the idle connection meanwhile (30 s by default) fails a test that is not about
/// idle connections.
package func withTestServer(
    _ configuration: StubServer.Configuration = StubServer.Configuration(
        idleTimeout: testServerTimeout, headerTimeout: testServerTimeout),
    _ body: (StubServer, TemporaryFixtures) async throws -> Void
) async throws {
    let fixtures = try TestCatalog.fixtures()
    defer { fixtures.remove() }
    try await withStubServer(fixtures: fixtures.root, configuration: configuration) { server in
        try await body(server, fixtures)
    }
}

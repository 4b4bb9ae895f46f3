package import StubServer

/// Sends `GET target` to `server` on a new connection that closes after the answer, and reads the answer.
package func get(_ target: String, from server: StubServer, headers: String = "") async throws -> RawResponse {
    try await RawHTTPClient.get(target, port: server.port, headers: headers)
}

/// Sends one request to `server` on a new connection and reads its answer.
package func exchange(_ server: StubServer, _ request: String) async throws -> RawResponse {
    try await RawHTTPClient.exchange(request, port: server.port)
}

/// Runs `body` with a server serving one API folder whose `stubs.json` is `stubsJSON` (and `files` beside it),
/// then stops the server and removes the folder.
package func withServer(
    stubs stubsJSON: String, files: [String: String] = [:],
    _ configuration: StubServer.Configuration = StubServer.Configuration(),
    _ body: (StubServer) async throws -> Void
) async throws {
    var all = files.reduce(into: [:]) { $0["api/\($1.key)"] = $1.value }
    all["api/stubs.json"] = stubsJSON
    let fixtures = try TemporaryFixtures(all)
    defer { fixtures.remove() }
    try await withStubServer(fixtures: fixtures.root, configuration: configuration, body)
}

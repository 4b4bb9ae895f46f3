import StubCore

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Runs `body` with a server serving `fixtures` on an ephemeral loopback port, and stops it afterwards, also
/// when `body` throws.
/// - Parameters:
///   - fixtures: a `MockData`-style folder.
///   - configuration: how the server listens; port 0 by default.
///   - isolation: the actor `body` runs on: the caller's.
///   - body: the test, given the running server.
/// - Returns: what `body` returns.
/// - Throws: `CatalogError` for invalid fixtures, `StubServerError.bindFailed` when the server cannot listen, or
///   what `body` throws.
public func withStubServer<T>(
    fixtures: URL, configuration: StubServer.Configuration = StubServer.Configuration(),
    isolation: isolated (any Actor)? = #isolation, _ body: (StubServer) async throws -> T
) async throws -> T {
    try await withStubServer(catalog: StubCatalog.load(from: fixtures), configuration: configuration, body)
}

/// Runs `body` with a server serving `catalog` on an ephemeral loopback port, and stops it afterwards.
package func withStubServer<T>(
    catalog: StubCatalog, configuration: StubServer.Configuration = StubServer.Configuration(),
    isolation: isolated (any Actor)? = #isolation, _ body: (StubServer) async throws -> T
) async throws -> T {
    try await StubServer.start(catalog: catalog, configuration: configuration).serving(body)
}

extension StubServer {
    /// Runs `body` with this server, then stops it, also when `body` throws.
    package func serving<T>(
        isolation: isolated (any Actor)? = #isolation, _ body: (StubServer) async throws -> T
    ) async throws -> T {
        do {
            let result = try await body(self)
            await stop()
            return result
        } catch {
            await stop()
            throw error
        }
    }
}

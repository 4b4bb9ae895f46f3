import Foundation
import StubServer
import XCTest

extension XCTestCase {
    /// Starts a stub server serving `fixtures` on an ephemeral loopback port, stopped when the test ends.
    /// - Parameters:
    ///   - fixtures: a `MockData`-style folder.
    ///   - configuration: how the server listens; port 0 by default.
    /// - Returns: the running server; use its `baseURL`.
    /// - Throws: `CatalogError` for invalid fixtures, `SocketError` when binding fails.
    public func startStubServer(
        fixtures: URL, configuration: StubServer.Configuration = StubServer.Configuration()
    ) throws -> StubServer {
        let server = try StubServer.start(fixtures: fixtures, configuration: configuration)
        addTeardownBlock { await server.stop() }
        return server
    }
}

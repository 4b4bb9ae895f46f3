import CatalogAPI
import Foundation
import StubServer
import StubServerTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The app's client against the stub server, with fixtures from the test bundle: one server per test, strict
/// (a request no stub matched fails the test).
@Suite(.stubServer(fixtures: Bundle.module.url(forResource: "MockData", withExtension: nil)!))
struct CatalogAPITests {
    /// The app's real base URL, which the stubs' `url(_:)` puts on their own address.
    static let production = URL(string: "https://catalog.example.com")!

    func api() throws -> CatalogAPI {
        let stubs = try TestStubs.required()
        return CatalogAPI(baseURL: stubs.url(Self.production), session: stubs.urlSession)
    }

    @Test func good_listsTheAlbumsInOrder() async throws {
        let albums = try await api().topAlbums(limit: 2)
        #expect(albums.map(\.name) == ["Velvet Arcade", "Concrete Signals"])
        await expectRequests(JournalQuery(stub: "top-albums"), count: 1)
    }

    @Test(arguments: [
        ("bad", CatalogAPIError.unreadable), ("nil", .unreadable), ("server-error", .status(503)), ("drop", .transport),
    ])
    func eachBrokenAnswer_isItsError(variant: String, expected: CatalogAPIError) async throws {
        try await TestStubs.required().setVariant(variant, forStub: "top-albums")
        let api = try api()
        await #expect(throws: expected) { try await api.topAlbums(limit: 2) }
    }
}

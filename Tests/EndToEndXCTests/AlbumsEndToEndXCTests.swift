import AlbumsFeature
import Foundation
import Networking
import StubServer
import StubServerXCTest
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The albums list through the real client against the stub server, written the XCTest way.
final class AlbumsEndToEndXCTests: XCTestCase {
    @MainActor
    private func makeModel(variant: String?) async throws -> (AlbumListViewModel, StubServer) {
        let stubs = try await startStubServer(transport: .socket, fixtures: XCTUnwrap(StubCatalog.findFolder()))
        let server = try XCTUnwrap(stubs.server)
        try server.setVariant(variant, forStub: "top-albums")
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 5
        let http = URLSessionHTTPClient(session: URLSession(configuration: configuration))
        let model = AlbumListViewModel(client: LiveAlbumsClient(http: http, baseURL: server.baseURL))
        return (model, server)
    }

    @MainActor
    func testGoodFeed_showsAHundredRows() async throws {
        let (model, _) = try await makeModel(variant: "good")
        await model.viewAppeared()
        guard case .loaded(let rows) = model.state else {
            return XCTFail("expected rows, got \(model.state)")
        }
        XCTAssertEqual(rows.count, 100)
        XCTAssertEqual(rows[17].title, "Untitled album")
    }

    @MainActor
    func testBrokenVariants_showReadableFailures() async throws {
        let expected = [
            "bad": "The server's answer couldn't be read.",
            "nil": "The server sent an empty answer.",
            "server-error": "The server had a problem (error 503). Try again later.",
            "drop": "Couldn't reach the server. Check your connection and try again.",
        ]
        for (variant, message) in expected {
            let (model, _) = try await makeModel(variant: variant)
            await model.viewAppeared()
            XCTAssertEqual(model.state, .failed(message), variant)
        }
    }

    @MainActor
    func testEmptyFeed_showsEmpty() async throws {
        let (model, server) = try await makeModel(variant: "empty")
        await model.viewAppeared()
        XCTAssertEqual(model.state, .empty)
        XCTAssertEqual(server.requestCount(JournalQuery(stub: "top-albums")), 1)
    }
}

import Foundation
import ImageCache
import Networking
import NetworkingTestSupport
import StubServer
import StubTestSupport
import TestTurns
import Testing

/// The image cache through the real client against the artwork fixtures.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct ImageCacheEndToEndTests {
    private func withCache(_ body: (StubServer, ImageCache, URL) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("e2e-images-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try await withStubServer(catalog: try await MockData.catalog()) { server in
            try await body(server, ImageCache(client: realClient(), directory: directory), directory)
        }
    }

    @Test(arguments: [
        ("bad", ImageCacheError.notAnImage(URL(string: "http://x")!, contentType: "image/png")),
        ("nil", .network(.emptyBody)),
        ("not-found", .network(.status(404, body: Data()))),
    ])
    func brokenArtwork_isAnErrorAndNotCached(_ variant: String, expected: ImageCacheError) async throws {
        try await withCache { server, cache, _ in
            try server.setVariant(variant, forStub: "album-artwork")
            let url = server.baseURL.appendingPathComponent("artwork/1/200x200bb.png")
            do {
                _ = try await cache.image(for: url)
                Issue.record("loaded the \(variant) variant")
            } catch {
                let failure = error as? ImageCacheError
                if case .notAnImage(_, let expectedType) = expected {
                    #expect(failure == .notAnImage(url, contentType: expectedType))
                } else {
                    #expect(failure == expected)
                }
            }
            #expect(await cache.cachedImage(for: url) == nil)
        }
    }

    @Test func artwork_isDownloadedOnceForManyConcurrentLoads() async throws {
        try await withCache { server, cache, directory in
            let urls = (0..<10).map { server.baseURL.appendingPathComponent("artwork/\($0)/200x200bb.png") }
            try await withThrowingTaskGroup(of: Data.self) { group in
                for index in 0..<60 {
                    group.addTask { try await cache.image(for: urls[index % urls.count]) }
                }
                for try await data in group {
                    #expect(ImageFormat(sniffing: data) == .png)
                }
            }
            let downloads = server.requestCount(JournalQuery(stub: "album-artwork"))
            #expect(downloads >= 10 && downloads <= 60)
            server.clearJournal()
            let reopened = ImageCache(client: realClient(), directory: directory)
            for url in urls { _ = try await reopened.image(for: url) }
            #expect(server.requestCount(JournalQuery()) == 0, "a new cache on the same folder reads the disk")
        }
    }

    @Test(arguments: ["3g", "slow-network"])
    func artworkOverASlowNetwork_arrivesWholeAndIsCached(_ variant: String) async throws {
        try await withCache { server, cache, _ in
            try server.setVariant(variant, forStub: "album-artwork")
            let url = server.baseURL.appendingPathComponent("artwork/1/200x200bb.png")
            let data = try await cache.image(for: url)
            #expect(
                data == FileManager.default.contents(atPath: mockData.appendingPathComponent("albums/artwork.png").path)
            )
            #expect(server.journal(JournalQuery(stub: "album-artwork")).map(\.variant) == [variant])
            #expect(await cache.cachedImage(for: url) == data)
        }
    }

    @Test func cancellingALoadWhileTheBodyDribblesIn_endsItAndCachesNothing() async throws {
        try await withCache { server, cache, _ in
            try server.setVariant("stalled", forStub: "album-artwork")
            let url = server.baseURL.appendingPathComponent("artwork/1/200x200bb.png")
            let load = Task { () async throws(ImageCacheError) -> Data in try await cache.image(for: url) }
            // Generous: on a loaded machine URLSession's first request can take seconds to start.
            try await waitUntil("the server to answer the artwork request") {
                server.requestCount(JournalQuery(stub: "album-artwork")) == 1
            }
            load.cancel()
            await #expect(throws: ImageCacheError.cancelled) { try await load.value }
            #expect(await cache.downloadsInFlight == 0)
            #expect(await cache.cachedImage(for: url) == nil)
            try await waitUntil("the client to leave mid-body") { server.openConnections == 0 }
        }
    }
}

import Foundation
import Networking
import NetworkingTestSupport
import Synchronization
import TestTurns
import Testing

@testable import ImageCache

/// A tiny valid PNG header followed by a payload, enough for `ImageFormat` to accept it.
func pngData(_ payload: String = "") -> Data {
    Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data(payload.utf8)
}

/// A fresh directory for one test's disk cache.
func temporaryCacheDirectory() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("image-cache-\(UUID().uuidString)")
}

/// An `HTTPClient` whose answers wait at a `Gate` until the test opens it, to hold downloads in flight.
final class GatedClient: HTTPClient {
    private let gate = Gate()
    private let answer: HTTPResponse

    init(answer: HTTPResponse) {
        self.answer = answer
    }

    /// Requests that reached the client so far.
    var calls: Int { gate.enteredCount }

    func open() {
        gate.open()
    }

    func waitUntilCalled(times: Int = 1) async throws {
        try await gate.waitUntilEntered(count: times)
    }

    func send(_ request: HTTPRequest) async throws(APIError) -> HTTPResponse {
        await gate.pass()
        if Task.isCancelled { throw .cancelled }
        return answer
    }
}

@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct ImageCacheTests {
    private let url = URL(string: "http://images.test/a.png")!

    @Test func image_isDownloadedOnceThenServedFromMemory() async throws {
        let client = FakeHTTPClient(status: 200, body: pngData("a"))
        let cache = ImageCache(client: client, directory: nil)
        #expect(try await cache.image(for: url) == pngData("a"))
        #expect(try await cache.image(for: url) == pngData("a"))
        #expect(client.requests.count == 1)
    }

    @Test func image_survivesANewCacheOnTheSameDirectory() async throws {
        let directory = temporaryCacheDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = FakeHTTPClient(status: 200, body: pngData("disk"))
        _ = try await ImageCache(client: first, directory: directory).image(for: url)
        let second = FakeHTTPClient()
        let reopened = ImageCache(client: second, directory: directory)
        #expect(try await reopened.image(for: url) == pngData("disk"))
        #expect(second.requests.isEmpty, "served from disk, no download")
        let file = DiskImageStore(directory: directory).fileURL(for: url)
        #expect(file.lastPathComponent.count == 22, "16 hex digits and .image")
        #expect(file == DiskImageStore(directory: directory).fileURL(for: url), "stable per URL")
    }

    @Test(arguments: [
        (
            200, "<html>error page</html>",
            ImageCacheError.notAnImage(URL(string: "http://images.test/a.png")!, contentType: "text/html")
        ),
        (404, "", .network(.status(404, body: Data()))),
        (200, "", .network(.emptyBody)),
    ])
    func failedLoads_areErrorsAndAreNotCached(_ status: Int, _ body: String, expected: ImageCacheError) async throws {
        let directory = temporaryCacheDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let client = FakeHTTPClient(status: status, body: Data(body.utf8), headers: ["Content-Type": "text/html"])
        let cache = ImageCache(client: client, directory: directory)
        await #expect(throws: expected) { try await cache.image(for: url) }
        await #expect(throws: expected) { try await cache.image(for: url) }
        #expect(client.requests.count == 2, "a failure is not cached")
        #expect(await cache.cachedImage(for: url) == nil)
        #expect(!FileManager.default.fileExists(atPath: DiskImageStore(directory: directory).fileURL(for: url).path))
    }

    @Test func transportErrors_areReportedAsNetworkErrors() async {
        let cache = ImageCache(client: FakeHTTPClient(failing: .offline), directory: nil)
        await #expect(throws: ImageCacheError.network(.offline)) { try await cache.image(for: url) }
    }

    @Test func concurrentLoadsOfOneURL_shareOneDownload() async throws {
        let client = GatedClient(answer: HTTPResponse(status: 200, body: pngData("shared")))
        let cache = ImageCache(client: client, directory: nil)
        try await withThrowingTaskGroup(of: Data.self) { group in
            for _ in 0..<50 {
                group.addTask { try await cache.image(for: url) }
            }
            try await waitUntil("a download in flight") { await cache.downloadsInFlight > 0 }
            client.open()
            for try await data in group {
                #expect(data == pngData("shared"))
            }
        }
        #expect(client.calls == 1)
    }

    @Test func manyURLsLoadedConcurrently_eachDownloadOnce() async throws {
        let client = FakeHTTPClient { request throws(APIError) in
            HTTPResponse(status: 200, body: pngData(request.url.lastPathComponent))
        }
        let cache = ImageCache(client: client, directory: nil)
        let urls = (0..<40).map { URL(string: "http://images.test/\($0 % 10).png")! }
        try await withThrowingTaskGroup(of: (URL, Data).self) { group in
            for url in urls {
                group.addTask { (url, try await cache.image(for: url)) }
            }
            for try await (url, data) in group {
                #expect(data == pngData(url.lastPathComponent))
            }
        }
        #expect(Set(client.requests.map(\.url)).count == 10)
        #expect(client.requests.count == 10, "in-flight loads share a download and later ones hit the memory cache")
    }

    @Test func cancellingOneLoad_leavesTheOthersGoing() async throws {
        let client = GatedClient(answer: HTTPResponse(status: 200, body: pngData("x")))
        let cache = ImageCache(client: client, directory: nil)
        let cancelled = Task { try await cache.image(for: url) }
        let kept = Task { try await cache.image(for: url) }
        try await client.waitUntilCalled()
        cancelled.cancel()
        await #expect(throws: ImageCacheError.cancelled) { try await cancelled.value }
        client.open()
        #expect(try await kept.value == pngData("x"))
    }

    @Test func cancellingEveryLoad_stopsTheDownload() async throws {
        let client = GatedClient(answer: HTTPResponse(status: 200, body: pngData("x")))
        let cache = ImageCache(client: client, directory: nil)
        let load = Task { try await cache.image(for: url) }
        try await client.waitUntilCalled()
        load.cancel()
        await #expect(throws: ImageCacheError.cancelled) { try await load.value }
        #expect(await cache.downloadsInFlight == 0)
        client.open()
        #expect(await cache.cachedImage(for: url) == nil, "a cancelled download is not cached")
    }

    @Test func alreadyCancelledLoads_returnAtOnce() async {
        let cache = ImageCache(client: GatedClient(answer: HTTPResponse(status: 200)), directory: nil)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await cache.image(for: url)
        }
        await #expect(throws: ImageCacheError.cancelled) { try await task.value }
    }
}

@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct LRUCacheTests {
    @Test func insert_evictsTheLeastRecentlyUsedOverTheCostLimit() {
        var cache = LRUCache<String, Int>(costLimit: 10, countLimit: 10)
        cache.insert(1, for: "a", cost: 4)
        cache.insert(2, for: "b", cost: 4)
        _ = cache.value(for: "a")
        cache.insert(3, for: "c", cost: 4)
        #expect(cache.value(for: "b") == nil)
        #expect(cache.value(for: "a") == 1)
        #expect(cache.value(for: "c") == 3)
        #expect(cache.totalCost == 8)
    }

    @Test func insert_respectsTheCountLimitAndSkipsOversizedValues() {
        var cache = LRUCache<Int, Int>(costLimit: 100, countLimit: 3)
        for key in 0..<5 { cache.insert(key, for: key, cost: 1) }
        #expect(cache.count == 3)
        #expect(cache.value(for: 0) == nil)
        cache.insert(9, for: 9, cost: 101)
        #expect(cache.value(for: 9) == nil)
        cache.removeAll()
        #expect(cache.count == 0 && cache.totalCost == 0)
    }
}

@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct ImageFormatTests {
    @Test(
        arguments: [
            ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0], ImageFormat.png),
            ([0xFF, 0xD8, 0xFF, 0xE0], .jpeg),
            (Array("GIF89a...".utf8), .gif),
            (Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBP".utf8), .webp),
        ] as [([UInt8], ImageFormat)])
    func sniffing_recognisesImages(_ bytes: [UInt8], expected: ImageFormat) {
        #expect(ImageFormat(sniffing: Data(bytes)) == expected)
    }

    @Test(arguments: ["", "{\"json\":true}", "<html>", "RIFF....WAVE"])
    func sniffing_rejectsOtherBytes(_ text: String) {
        #expect(ImageFormat(sniffing: Data(text.utf8)) == nil)
    }
}

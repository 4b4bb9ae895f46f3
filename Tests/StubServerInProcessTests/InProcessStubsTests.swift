import Foundation
import StubServerInProcess
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The package's `MockData/` folder.
let mockData = StubCatalog.findFolder()!

@Suite(.timeLimit(.minutes(1)))
struct InProcessStubsTests {
    @Test func aRealHTTPSURL_getsTheFixtureByteForByte() async throws {
        let stubs = try InProcessStubs.start(fixtures: mockData)
        let url = URL(string: "https://itunes.apple.com/search?term=jack+johnson&offset=0&limit=25")!
        let (data, response) = try await stubs.urlSession.data(from: url)
        await stubs.stop()
        let fixture = try Data(contentsOf: mockData.appendingPathComponent("itunes-search/jack-johnson.0.json"))
        #expect(data == fixture)
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 200)
        #expect(http.url == url)
        #expect(stubs.journal().map(\.stub) == ["jack-johnson-page-1"])
    }
}

import Foundation
import StubServerInProcess
import StubTestSupport
import TestTurns
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Download and upload tasks: answered in process on Apple platforms; on Linux they end with a clear
/// `URLError(.unsupportedURL)` instead of the crash or the lost body swift-corelibs-foundation would give them
/// (see `StubURLProtocol.unsupported`).
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct TransferTaskTests {
    static let search = URL(string: "https://itunes.apple.com/search?term=jack+johnson&offset=0&limit=25")!

    static func searchFixture() throws -> Data {
        try Data(contentsOf: mockData.appendingPathComponent("itunes-search/jack-johnson.0.json"))
    }

    #if canImport(FoundationNetworking)
        @Test func aDownloadTask_isRefusedWithAReason() async throws {
            let stubs = InProcessStubs.start(catalog: try await MockData.catalog())
            defer { Task { await stubs.stop() } }
            await #expect {
                _ = try await stubs.urlSession.download(from: Self.search)
            } throws: { error in
                (error as? URLError)?.code == .unsupportedURL
                    && error.localizedDescription.contains("download tasks cannot be answered in process on Linux")
            }
        }

        @Test func anUploadTask_isRefusedWithAReason() async throws {
            let stubs = InProcessStubs.start(catalog: try await MockData.catalog())
            defer { Task { await stubs.stop() } }
            var request = URLRequest(url: Self.search)
            request.httpMethod = "POST"
            await #expect {
                _ = try await stubs.urlSession.upload(for: request, from: Data("{}".utf8))
            } throws: { error in
                (error as? URLError)?.code == .unsupportedURL
                    && error.localizedDescription.contains("upload tasks cannot be answered in process on Linux")
            }
        }
    #else
        @Test func aDownloadTask_getsTheFixtureInAFile() async throws {
            let stubs = InProcessStubs.start(catalog: try await MockData.catalog())
            defer { Task { await stubs.stop() } }
            let (file, response) = try await stubs.urlSession.download(from: Self.search)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(try Data(contentsOf: file) == Self.searchFixture())
        }

        @Test func anUploadTask_sendsItsBody() async throws {
            let stubs = InProcessStubs.start(catalog: try await MockData.catalog())
            defer { Task { await stubs.stop() } }
            var request = URLRequest(url: Self.search)
            request.httpMethod = "POST"
            let (_, response) = try await stubs.urlSession.upload(for: request, from: Data(#"{"a":1}"#.utf8))
            #expect((response as? HTTPURLResponse)?.statusCode == 405, "the search is GET only")
            let journaled = stubs.journal(JournalQuery()).first?.body
            print("upload task body as the in-process server journaled it: \(String(describing: journaled))")
            // Unproven: OHHTTPStubs (issue #312) and SBTUITestTunnel say Apple's URLSession may keep an upload
            // task's body from a URLProtocol; the first Apple run says which.
            withKnownIssue("an upload task's body may not reach a URLProtocol on Apple platforms", isIntermittent: true)
            {
                #expect(journaled == Data(#"{"a":1}"#.utf8))
            }
        }
    #endif
}

import ChildProcesses
import Foundation
import StubTestSupport
import TestTurns
import Testing

@testable import StubCore
@testable import StubServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The stub server as apps meet it: through URLSession, and through curl.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct URLSessionEndToEndTests {
    private static func session() -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 5
        configuration.timeoutIntervalForResource = 10
        return URLSession(configuration: configuration)
    }

    @Test(arguments: ["good", "bad", "nil", "server-error"])
    func urlSession_receivesEachVariantOfMockData(_ variant: String) async throws {
        try await withStubServer(catalog: try await MockData.catalog()) { server in
            let url = server.baseURL.appendingPathComponent("/api/v1/us/apple-music/top-albums/all/100/explicit.json")
            var request = URLRequest(url: url)
            request.setValue(variant, forHTTPHeaderField: "X-Stub-Variant")
            let (data, response) = try await Self.session().data(for: request)
            let http = try #require(response as? HTTPURLResponse)
            #expect(http.value(forHTTPHeaderField: "X-Stub-Variant") == variant)
            let expectedBody = server.catalog.stub(named: "top-albums")?.variants[variant]?.body ?? []
            switch variant {
            case "good":
                #expect(http.statusCode == 200)
                let feed = try JSONSerialization.jsonObject(with: data) as? [String: Any]
                let results = (feed?["feed"] as? [String: Any])?["results"] as? [[String: Any]]
                let artwork = try #require(results?.first?["artworkUrl100"] as? String)
                #expect(artwork.hasPrefix(server.baseURL.absoluteString + "/artwork/"), "templated to this server")
                let (image, imageResponse) = try await Self.session().data(from: try #require(URL(string: artwork)))
                #expect((imageResponse as? HTTPURLResponse)?.mimeType == "image/png")
                #expect(image.starts(with: [0x89, 0x50, 0x4E, 0x47]))
            case "server-error":
                #expect(http.statusCode == 503)
                #expect(http.value(forHTTPHeaderField: "Retry-After") == "1")
            default:
                #expect(http.statusCode == 200)
                #expect([UInt8](data) == expectedBody)
            }
        }
    }

    @Test func urlSession_seesADroppedConnectionAsAnError() async throws {
        try await withStubServer(catalog: try await MockData.catalog()) { server in
            try server.setVariant("drop", forStub: "top-albums")
            let url = server.baseURL.appendingPathComponent("/api/v1/us/apple-music/top-albums/all/100/explicit.json")
            await #expect(throws: URLError.self) { try await Self.session().data(from: url) }
            #expect(server.requestCount(JournalQuery(stub: "top-albums", variant: "drop")) >= 1)
        }
    }

    // curl runs as a process of its own: there is none on iOS, tvOS, watchOS or visionOS.
    #if os(macOS) || os(Linux)
        @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")))
        func curl_getsAnswersAndErrorsFromTheServer() async throws {
            try await withTestServer { server, _ in
                let ok = try await Self.curl(["-sS", "-i", "\(server.baseURL)/albums/42"])
                try #require(ok.status == 0, "curl exits 28 when the server does not answer within --max-time")
                #expect(ok.output.contains("HTTP/1.1 200 OK"))
                #expect(ok.output.contains("X-Stub-Name: album"))
                #expect(ok.output.hasSuffix(#"{"id":"42"}"#))
                let posted = try await Self.curl([
                    "-sS", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Content-Type: application/json",
                    "--data-binary", "{\"big\":\"\(String(repeating: "x", count: 3000))\"}", "\(server.baseURL)/upload",
                ])
                #expect(posted.output == "201")
                let head = try await Self.curl(["-sS", "-I", "\(server.baseURL)/albums/1"])
                #expect(head.output.contains("Content-Length: 10"))
                #expect(
                    server.journal(JournalQuery(stub: "upload")).first?.body.count == 3010,
                    "curl sent Expect: 100-continue and the body")
            }
        }

        /// Runs curl; `--max-time` bounds it, so a server that stops answering fails the test within a minute (curl
        /// exits 28) instead of holding it.
        private static func curl(_ arguments: [String]) async throws -> (status: Int32, output: String) {
            let curl = try ChildProcess("/usr/bin/curl", arguments: ["--max-time", "60"] + arguments)
            var ended = await curl.exit(within: 60)
            if ended == nil { ended = await curl.kill() }
            let output = await curl.stdout!.end(within: 60) ?? curl.stdout!.received
            return (ended?.status ?? -1, String(decoding: output, as: UTF8.self))
        }
    #endif
}

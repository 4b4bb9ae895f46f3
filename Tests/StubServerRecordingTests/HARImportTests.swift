import Foundation
import StubServer
import StubServerRecording
import StubTestSupport
import TestTurns
import Testing

/// HAR captures become fixtures with the recorder's writer.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct HARImportTests {
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0xFF])

    /// A capture of four exchanges: two answers to one search (a sequence), an image in base64, and another host.
    static func har() -> Data {
        func entry(_ url: String, _ status: Int, _ type: String, _ text: String, base64: Bool = false) -> [String: Any]
        {
            var content: [String: Any] = ["mimeType": type, "text": text]
            if base64 { content["encoding"] = "base64" }
            return [
                "request": [
                    "method": "GET", "url": url,
                    "headers": [
                        ["name": "Authorization", "value": "Bearer s3cret-har"], ["name": "Accept", "value": "*/*"],
                    ],
                ],
                "response": [
                    "status": status,
                    "headers": [
                        ["name": "Content-Type", "value": type], ["name": "Set-Cookie", "value": "id=s3cret-c"],
                    ],
                    "content": content,
                ],
            ]
        }
        let entries = [
            entry("https://itunes.apple.com/search?term=jack%20johnson&limit=2", 200, "application/json", #"{"n":1}"#),
            entry("https://itunes.apple.com/search?term=jack%20johnson&limit=2", 200, "application/json", #"{"n":2}"#),
            entry(
                "https://is1-ssl.mzstatic.com/image/a.png", 200, "image/png", png.base64EncodedString(), base64: true),
            entry("https://tracker.example/collect?id=1", 204, "text/plain", ""),
        ]
        return try! JSONSerialization.data(withJSONObject: ["log": ["version": "1.2", "entries": entries]])
    }

    @Test func aCapture_becomesValidFixturesWithSequencesAndDecodedBodies() async throws {
        let fixtures = try TemporaryFixtures()
        defer { fixtures.remove() }
        let folder = fixtures.url("har")
        let lines = try await HARImporter(
            fixtures: folder, onlyHosts: ["itunes.apple.com", "is1-ssl.mzstatic.com"]
        ).importHAR(Self.har())
        #expect(
            lines == [
                "recorded GET /search?term=jack%20johnson&limit=2 as get-search (good; bad and nil generated)",
                "recorded GET /search?term=jack%20johnson&limit=2 as get-search recorded-2",
                "recorded GET /image/a.png as get-image-a-png (good; bad and nil generated)",
                "skipped GET tracker.example/collect (other host)",
            ])
        let catalog = try StubCatalog.load(from: folder)
        #expect(catalog.stubs.map(\.api) == ["is1-ssl-mzstatic-com", "itunes-apple-com"])
        #expect(
            catalog.stubs.map(\.hosts) == [["is1-ssl.mzstatic.com"], ["itunes.apple.com"]],
            "each folder answers its host in process")
        let search = try #require(catalog.stub(named: "get-search"))
        #expect(search.sequence == ["good", "recorded-2"])
        #expect(search.variants["good"]?.body == Array(#"{"n":1}"#.utf8))
        #expect(search.variants["recorded-2"]?.body == Array(#"{"n":2}"#.utf8))
        #expect(search.request.query.map(\.name) == ["limit", "term"])
        let image = try #require(catalog.stub(named: "get-image-a-png"))
        #expect(image.variants["good"]?.body == [UInt8](Self.png), "base64 decoded")
        #expect(image.variants["good"]?.header("Content-Type") == "image/png")
        for (path, data) in files(in: folder) {
            #expect(!String(decoding: data, as: UTF8.self).contains("s3cret"), "a secret in \(path)")
        }
    }

    /// HAR keeps a `text/event-stream` answer whole, with no time per event: it becomes an events file without
    /// pauses, which replays as a stream.
    @Test func anEventStreamInACapture_becomesAnEventsFileWithoutPauses() async throws {
        let fixtures = try TemporaryFixtures()
        defer { fixtures.remove() }
        let folder = fixtures.url("har")
        let stream = "id: 1\ndata: Hel\n\nid: 2\nevent: done\ndata: [DONE]\n\n"
        let entry: [String: Any] = [
            "request": ["method": "GET", "url": "https://chat.example/stream", "headers": [[String: String]]()],
            "response": [
                "status": 200, "headers": [["name": "Content-Type", "value": "text/event-stream"]],
                "content": ["mimeType": "text/event-stream", "text": stream],
            ],
        ]
        let har = try JSONSerialization.data(withJSONObject: ["log": ["version": "1.2", "entries": [entry]]])
        _ = try await HARImporter(fixtures: folder).importHAR(har)
        let file = try String(
            contentsOf: folder.appendingPathComponent("chat-example/get-stream.good.sse"), encoding: .utf8)
        #expect(file == stream, "no pauses: no delay comments")
        let catalog = try StubCatalog.load(from: folder)
        let good = try #require(catalog.stub(named: "get-stream")?.variants["good"])
        #expect(good.events?.events.map(\.id) == ["1", "2"])
        #expect(catalog.stub(named: "get-stream")?.variants["bad"]?.events?.events.count == 1)
    }

    @Test(arguments: [
        (#"{"log": {"entries": [{}]}}"#, "log.entries[0].request: missing, or not an object"),
        (#"{"log": {}}"#, "log.entries: missing, or not an array"),
        ("not json", "not JSON"),
        (
            #"{"log": {"entries": [{"request": {"method": "GET", "url": "https://a/x"}, "response": {"status": 200, "content": {}}}, {"request": {"method": "GET", "url": "https://a/y"}, "response": {"content": {}}}]}}"#,
            "log.entries[1].response.status: missing, or not a status from 100 to 599"
        ),
        (
            #"{"log": {"entries": [{"request": {"method": "GET", "url": "/relative"}, "response": {"status": 200, "content": {}}}]}}"#,
            "log.entries[0].request.url: not an absolute http(s) URL: /relative"
        ),
        (
            // Found by the har-importer fuzzer: a user and no host parses with the host "".
            #"{"log": {"entries": [{"request": {"method": "GET", "url": "https://itunes.apple.co@/search"}, "response": {"status": 200, "content": {}}}]}}"#,
            "log.entries[0].request.url: not an absolute http(s) URL: https://itunes.apple.co@/search"
        ),
        (
            #"{"log": {"entries": [{"request": {"method": "GET", "url": "ftp://a/x"}, "response": {"status": 200, "content": {}}}]}}"#,
            "log.entries[0].request.url: not an absolute http(s) URL: ftp://a/x"
        ),
        (
            #"{"log": {"entries": [{"request": {"method": "GET", "url": "https://a/x"}, "response": {"status": 200, "content": {"text": "%%%", "encoding": "base64"}}}]}}"#,
            "log.entries[0].response.content.text: not valid base64"
        ),
    ])
    func aMalformedCapture_namesTheKeyPathAndWritesNothing(_ har: String, expected: String) async throws {
        let fixtures = try TemporaryFixtures()
        defer { fixtures.remove() }
        let folder = fixtures.url("har")
        await #expect {
            try await HARImporter(fixtures: folder).importHAR(Data(har.utf8))
        } throws: { error in
            (error as? HARError)?.description == expected
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }

    private func files(in folder: URL) -> [String: Data] {
        var found: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        while let path = enumerator?.nextObject() as? String {
            if let data = FileManager.default.contents(atPath: folder.appendingPathComponent(path).path) {
                found[path] = data
            }
        }
        return found
    }
}

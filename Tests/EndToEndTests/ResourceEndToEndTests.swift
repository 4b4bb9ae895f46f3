import Foundation
import StubServer
import StubServerInProcess
import StubServerRemote
import StubServerTesting
import StubTestSupport
import TestTurns
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A resource stub through the real URLSession, over both transports and controlled remotely: what the app creates,
/// changes and deletes it reads back; each server keeps its own items; `reset()` puts the seed back.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct ResourceEndToEndTests {
    static let host = URL(string: "https://api.example.com")!
    static let stubsJSON = #"""
        {
          "hosts": ["api.example.com"],
          "stubs": [
            {
              "name": "favorites",
              "request": { "path": "/api/favorites" },
              "resource": { "seed": "favorites.json", "list": { "wrap": "results", "count": "count" } },
              "variants": {
                "good": {},
                "bad": { "body": "{" },
                "nil": { "body": "" },
                "server-error": { "status": 503, "body": "down" }
              }
            }
          ]
        }
        """#
    static let seed = #"[{"id": "1440857781", "title": "In Between Dreams"}]"#

    /// Runs `body` with stubs of a fresh fixtures folder (its own seed), controlled as `control` says.
    static func withStubs<T>(_ control: Control, _ body: (Stubs) async throws -> T) async throws -> T {
        let fixtures = try TemporaryFixtures([
            "api/stubs.json": stubsJSON, "api/favorites.json": seed,
        ])
        defer { fixtures.remove() }
        return try await Stubs.with(control.transport, fixtures: fixtures.root, realHost: host) { stubs in
            try await stubs.controlled(as: control, body)
        }
    }

    /// `STATUS BODY` of one request.
    static func call(
        _ stubs: Stubs, _ method: String, _ path: String, _ body: String? = nil
    ) async throws -> (status: Int, body: String, location: String?) {
        var request = URLRequest(url: URL(string: stubs.baseURL.absoluteString + path)!, timeoutInterval: 5)
        request.httpMethod = method
        if let body {
            request.httpBody = Data(body.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession(configuration: stubs.configuration).data(for: request)
        let http = response as? HTTPURLResponse
        return (
            http?.statusCode ?? 0, String(decoding: data, as: UTF8.self), http?.value(forHTTPHeaderField: "Location")
        )
    }

    @Test(arguments: Control.allCases)
    func anAppsFavorites_areAddedListedRenamedAndRemoved(_ control: Control) async throws {
        try await Self.withStubs(control) { stubs in
            let added = try await Self.call(stubs, "POST", "/api/favorites", #"{"title": "Brushfire Fairytales"}"#)
            #expect(added.status == 201)
            #expect(added.body.contains(#""id":"1440857782""#))
            #expect(added.location == "/api/favorites/1440857782")
            let listed = try await Self.call(stubs, "GET", "/api/favorites")
            #expect(listed.body.contains(#""count":2"#) && listed.body.contains("Brushfire Fairytales"))
            let renamed = try await Self.call(stubs, "PATCH", "/api/favorites/1440857782", #"{"title": "On and On"}"#)
            #expect(renamed.body == #"{"id":"1440857782","title":"On and On"}"#)
            #expect(try await Self.call(stubs, "DELETE", "/api/favorites/1440857782").status == 204)
            let gone = try await Self.call(stubs, "GET", "/api/favorites/1440857782")
            #expect(gone.status == 404)
            #expect(gone.body == #"{"error":"no item with id \"1440857782\" in favorites"}"#)
            let twice = try await Self.call(stubs, "POST", "/api/favorites", #"{"id": "1440857781"}"#)
            #expect(twice.status == 409)
            let notAnObject = try await Self.call(stubs, "POST", "/api/favorites", "[]")
            #expect(notAnObject.status == 422)
            #expect(notAnObject.body == #"{"error":"the body must be a JSON object, not an array"}"#)

            let server = stubs.server
            let changes = try await server.journal(JournalQuery(stub: "favorites")).compactMap(\.resource)
            #expect(changes.map(\.change) == [.created, .listed, .patched, .deleted, .refused, .refused, .refused])
            #expect(changes.first?.key == "1440857782")
            await expectRequests(JournalQuery(stub: "favorites", change: .patched, key: "1440857782"), on: server)
            #expect(try await server.requestCount(JournalQuery(change: .refused)) == 3)

            // A variant chosen for the stub answers instead of the collection.
            try await server.setVariant("server-error", forStub: "favorites")
            #expect(try await Self.call(stubs, "GET", "/api/favorites").status == 503)
            try await server.setVariant(nil, forStub: "favorites")

            // The control reads and replaces the items; reset puts the seed back.
            try await server.setItems(Data(#"[{"id": "7", "title": "Seven"}]"#.utf8), ofResource: "favorites")
            #expect(try await Self.call(stubs, "GET", "/api/favorites/7").body == #"{"id":"7","title":"Seven"}"#)
            await #expect(
                throws: StubServerError.invalidItems(
                    resource: "favorites", reason: "[0]: an item must be a JSON object, not a number")
            ) {
                try await server.setItems(Data("[1]".utf8), ofResource: "favorites")
            }
            await #expect(throws: StubServerError.unknownStub("nope", known: ["favorites"])) {
                _ = try await server.items(ofResource: "nope")
            }
            try await server.reset()
            let items = String(decoding: try await server.items(ofResource: "favorites"), as: UTF8.self)
            #expect(items == #"[{"id":"1440857781","title":"In Between Dreams"}]"#)
        }
    }

    /// MockData's favourite albums (seeded empty, keyed by the album's id): an album of the top-albums feed added,
    /// listed, renamed and removed through URLSession, over both transports.
    @Test(arguments: Transport.allCases)
    func mockDatasFavoriteAlbums_areAddedListedRenamedAndRemoved(_ transport: Transport) async throws {
        let host = URL(string: "https://rss.applemarketingtools.com")!
        try await Stubs.with(transport, realHost: host) { stubs in
            let path = "/api/v1/me/favorite-albums"
            #expect(try await Self.call(stubs, "GET", path).body == #"{"count":0,"results":[]}"#)
            let feed = try await Self.call(stubs, "GET", "/api/v1/us/apple-music/top-albums/all/100/explicit.json")
            let document = try JSONSerialization.jsonObject(with: Data(feed.body.utf8)) as? [String: Any]
            let first = try #require(((document?["feed"] as? [String: Any])?["results"] as? [[String: Any]])?.first)
            let id = try #require(first["id"] as? String)
            let name = try #require(first["name"] as? String)
            let album = try JSONSerialization.data(withJSONObject: ["id": id, "name": name])
            let added = try await Self.call(stubs, "POST", path, String(decoding: album, as: UTF8.self))
            #expect(added.status == 201)
            #expect(added.location == "\(path)/\(id)")
            #expect(try await Self.call(stubs, "GET", path).body.contains(#""count":1"#))
            let renamed = try await Self.call(stubs, "PATCH", "\(path)/\(id)", #"{"name": "Renamed"}"#)
            #expect(renamed.body == #"{"id":"\#(id)","name":"Renamed"}"#)
            #expect(try await Self.call(stubs, "DELETE", "\(path)/\(id)").status == 204)
            #expect(try await Self.call(stubs, "GET", path).body == #"{"count":0,"results":[]}"#)
            #expect(try await stubs.server.requestCount(JournalQuery(stub: "favorite-albums", change: .deleted)) == 1)
        }
    }

    /// MockData's favorite albums, chosen broken: each variant answers as written (what the app's error handling
    /// meets), and the collection behind it is untouched.
    @Test(arguments: Transport.allCases)
    func mockDatasFavoriteAlbums_chosenBroken_answerAsWritten_andKeepTheirItems(_ transport: Transport) async throws {
        let host = URL(string: "https://rss.applemarketingtools.com")!
        try await Stubs.with(transport, realHost: host) { stubs in
            let path = "/api/v1/me/favorite-albums"
            #expect(try await Self.call(stubs, "POST", path, #"{"id": "7", "name": "Kept"}"#).status == 201)
            var answers: [String: (status: Int, body: String)] = [:]
            for variant in ["bad", "nil", "server-error"] {
                try await stubs.server.setVariant(variant, forStub: "favorite-albums")
                let answer = try await Self.call(stubs, "GET", path)
                answers[variant] = (answer.status, answer.body)
            }
            #expect(answers["bad"]?.status == 200 && answers["bad"]?.body == #"{"results": ["#)
            #expect(answers["nil"]?.status == 200 && answers["nil"]?.body == "")
            #expect(answers["server-error"]?.status == 503 && answers["server-error"]?.body == #"{"error": "down"}"#)
            try await stubs.server.setVariant(nil, forStub: "favorite-albums")
            #expect(
                try await Self.call(stubs, "GET", path).body == #"{"count":1,"results":[{"id":"7","name":"Kept"}]}"#)
        }
    }

    @Test func twoServers_neverSeeEachOthersItems() async throws {
        try await Self.withStubs(.socket) { first in
            try await Self.withStubs(.inProcess) { second in
                _ = try await Self.call(first, "POST", "/api/favorites", #"{"id": "a"}"#)
                #expect(try await Self.call(first, "GET", "/api/favorites/a").status == 200)
                #expect(try await Self.call(second, "GET", "/api/favorites/a").status == 404)
            }
        }
    }
}

import Foundation
import HTTPEngine
import StubTestSupport
import TestTurns
import Testing

@testable import StubCore
@testable import StubServer

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Placeholders filled from the request, escaped for the body's type, and a `Host` that cannot break the body.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct TemplateTests {
    static let stubs = #"""
        {"stubs": [
          {"name": "json", "request": {"path": "/json"},
           "variants": {"good": {"headers": {"Content-Type": "application/json"}, "template": true,
              "body": "{\"q\":\"{{query.q}}\",\"url\":\"{{baseURL}}/x\",\"at\":\"{{now}}\",\"id\":\"{{uuid}}\",\"again\":\"{{uuid}}\"}"},
            "bad": {"body": "{"}, "nil": {"body": ""}}},
          {"name": "json-raw", "request": {"path": "/json-raw"},
           "variants": {"good": {"headers": {"Content-Type": "application/json"}, "template": true,
              "body": "{\"raw\":\"{{{query.q}}}\"}"},
            "bad": {"body": "{"}, "nil": {"body": ""}}},
          {"name": "xml", "request": {"path": "/xml"},
           "variants": {"good": {"headers": {"Content-Type": "text/xml; charset=utf-8"}, "template": true,
              "body": "<feed><q>{{query.q}}</q><link href=\"{{query.q}}\"/></feed>"},
            "bad": {"body": "{"}, "nil": {"body": ""}}},
          {"name": "text", "request": {"path": "/text"},
           "variants": {"good": {"template": true, "body": "q={{query.q}} {{unknown}} {{path.none}} {{ query.q "},
            "bad": {"body": "{"}, "nil": {"body": ""}}},
          {"name": "headers", "request": {"path": "/headers"},
           "variants": {"good": {"template": true,
              "headers": {"X-Echo": "{{query.q}}", "X-Raw": "{{{query.q}}}", "Location": "{{baseURL}}/next"}, "body": "ok"},
            "bad": {"body": "{"}, "nil": {"body": ""}}}
        ]}
        """#

    /// U+FEFF is escaped too: JSONSerialization on Linux dropped it raw inside a string (found by the stub-server
    /// fuzz target, `Fuzz/seeds/stub-server/bom-in-header`).
    @Test(arguments: [#"a"b"#, "<x>&'y'", "back\\slash", "line\nbreak", "tab\tand\u{1}", "\u{FEFF}2", "é\u{FEFF}"])
    func queryValues_areEscapedInsideJSONStrings(_ value: String) async throws {
        try await withServer(stubs: Self.stubs) { server in
            let encoded = value.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let response = try await exchange(server, get("/json?q=\(encoded)"))
            let answer = try #require(try? response.json(), "not JSON: \(response.text)")
            #expect(answer["q"] as? String == value)
        }
    }

    /// JSON labelled as real APIs label it (the iTunes Search API: `text/javascript`) is escaped as JSON: the
    /// body says what it is, not the label. A number placeholder outside a string still reads as JSON.
    @Test(arguments: [
        "text/javascript; charset=utf-8", "text/plain", "text/html", "application/json; charset=utf-8", nil,
    ])
    func jsonUnderAnyLabel_isEscapedAsJSON(_ type: String?) async throws {
        let headers = type.map { #""headers": {"Content-Type": "\#($0)"}, "# } ?? ""
        let stubs = #"""
            {"stubs": [
              {"name": "search", "request": {"path": "/search"},
               "variants": {"good": {\#(headers)"template": true,
                  "body": "{\"results\": [{\"trackName\": \"{{query.term}}\", \"limit\": {{query.limit}}}]}"},
                "bad": {"body": "{"}, "nil": {"body": ""}}}
            ]}
            """#
        try await withServer(stubs: stubs) { server in
            let response = try await exchange(server, get("/search?term=%22%5D%7D%3Cb%3E&limit=5"))
            let answer = try #require(try? response.json(), "not JSON: \(response.text)")
            let first = (answer["results"] as? [[String: Any]])?.first
            #expect(first?["trackName"] as? String == #""]}<b>"#)
            #expect(first?["limit"] as? Int == 5)
        }
    }

    /// A template's mutants are listed once for every server that renders it (from the template rendered as for any
    /// server), and each answer carries the URL its own client reached: two hosts, the same mutant, each body's
    /// links its own, and the same list of mutants named for an unknown ID.
    @Test(arguments: ["items[*].name:null", "items:one", "items[*]:unknown-key"])
    func aTemplatesMutant_carriesTheURLItsClientReached(_ id: String) async throws {
        let stubs = #"""
            {"stubs": [
              {"name": "feed", "request": {"path": "/feed"},
               "variants": {"good": {"headers": {"Content-Type": "application/json"}, "template": true,
                  "body": "{\"next\":\"{{baseURL}}/feed?page=2\",\"items\":[{\"name\":\"a\",\"url\":\"{{baseURL}}/a\"},{\"name\":\"b\",\"url\":\"{{baseURL}}/b\"}]}"},
                "bad": {"body": "{"}, "nil": {"body": ""}}}
            ]}
            """#
        try await withServer(stubs: stubs) { server in
            var refusals: [String] = []
            for host in ["one.test", "two.test:8080", "one.test"] {
                let request = { (mutant: String) in
                    "GET /feed HTTP/1.1\r\nHost: \(host)\r\nX-Stub-Mutation: \(mutant)\r\n\r\n"
                }
                let response = try await exchange(server, request(id))
                #expect(response.status == 200, "\(host): \(response.text)")
                let answer = try #require(try? response.json(), "not JSON: \(response.text)")
                let items = try #require(answer["items"] as? [[String: Any]])
                #expect(!items.isEmpty)
                for item in items { #expect((item["url"] as? String)?.hasPrefix("http://\(host)/") == true) }
                #expect(answer["next"] as? String == "http://\(host)/feed?page=2")
                refusals.append(try await exchange(server, request("no-such-mutant")).text)
            }
            #expect(Set(refusals).count == 1, "\(refusals)")
        }
    }

    @Test func theRawForm_insertsTheValueAsItIs() async throws {
        try await withServer(stubs: Self.stubs) { server in
            let response = try await exchange(server, get("/json-raw?q=%22%7D"))
            #expect(response.text == #"{"raw":""}"}"#)
            #expect((try? response.json()) == nil, "raw inserts break JSON on purpose")
        }
    }

    @Test func xmlBodies_getEntities() async throws {
        try await withServer(stubs: Self.stubs) { server in
            let response = try await exchange(server, get("/xml?q=%3C%2Fq%3E%22%26%27"))
            #expect(
                response.text
                    == #"<feed><q>&lt;/q&gt;&quot;&amp;&#39;</q><link href="&lt;/q&gt;&quot;&amp;&#39;"/></feed>"#)
            #expect(XMLParser(data: Data(response.body)).parse())
        }
    }

    @Test func plainText_isInsertedAsItIsAndUnknownPlaceholdersStay() async throws {
        try await withServer(stubs: Self.stubs) { server in
            let response = try await exchange(server, get("/text?q=%3Cb%3E"))
            #expect(response.text == "q=<b> {{unknown}} {{path.none}} {{ query.q ")
        }
    }

    @Test func headerValues_cannotEndTheFieldOrAddAnother() async throws {
        try await withServer(stubs: Self.stubs) { server in
            let response = try await exchange(server, get("/headers?q=a%0D%0AX-Evil:%201"))
            #expect(response.header("X-Echo") == "a  X-Evil: 1")
            #expect(response.header("X-Raw") == "a  X-Evil: 1", "raw placeholders are cleaned in headers too")
            #expect(response.header("X-Evil") == nil)
            #expect(response.header("Location") == "http://127.0.0.1/next")
        }
    }

    @Test func nowAndUUID_areFreshAndWellFormed() async throws {
        try await withServer(stubs: Self.stubs) { server in
            let answer = try await exchange(server, get("/json?q=x")).json()
            let at = try #require(answer["at"] as? String)
            #expect(at.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/) != nil, "\(at)")
            let formatter = ISO8601DateFormatter()
            #expect(abs(try #require(formatter.date(from: at)).timeIntervalSinceNow) < 60)
            let id = try #require(answer["id"] as? String)
            #expect(id.wholeMatch(of: /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/) != nil)
            #expect(answer["again"] as? String != id, "each {{uuid}} is new")
        }
    }

    @Test(arguments: [
        (#"evil"<x>"#, false), ("evil.example/x", false), ("a b", false), ("", false), (":80", false),
        ("host:", false), ("host:123456", false), ("host:99999", false), ("host:8x", false), ("[::1", false),
        ("[::1]x", false), ("[evil]", false), ("host:1:2", false), ("ex@mple.com", false),
        ("localhost", true), ("localhost:8080", true), ("127.0.0.1:49152", true), ("[::1]:8080", true), ("[::1]", true),
        ("my-mac.local", true), ("under_score~", true),
    ])
    func onlyAValidHostPort_buildsTheBaseURL(_ host: String, valid: Bool) {
        #expect(Template.isValidHost(host) == valid)
    }

    @Test(arguments: [#"evil"<x>"#, "evil.example/path", "a b"])
    func aHostileHost_cannotBreakTheAlbumsAnswer(_ host: String) async throws {
        try await withStubServer(catalog: try await MockData.catalog()) { server in
            let response = try await exchange(
                server,
                "GET /api/v1/us/apple-music/top-albums/all/100/explicit.json HTTP/1.1\r\nHost: \(host)\r\n\r\n")
            #expect(response.status == 200)
            let feed = try #require(try? response.json()["feed"] as? [String: Any], "not JSON")
            let first = try #require((feed["results"] as? [[String: Any]])?.first)
            let artwork = try #require(first["artworkUrl100"] as? String)
            #expect(artwork.hasPrefix(server.baseURL.absoluteString + "/"), "\(artwork)")
        }
    }

    @Test func aValidHost_isWhatTheClientReachedUsBy() async throws {
        try await withServer(stubs: Self.stubs) { server in
            let response = try await exchange(
                server, "GET /json?q=x HTTP/1.1\r\nHost: localhost:\(server.port)\r\n\r\n")
            #expect(try response.json()["url"] as? String == "http://localhost:\(server.port)/x")
        }
    }
}

import Foundation
import StubTestSupport
import TestTurns
import Testing

@testable import StubCore
@testable import StubServer

/// The control page's parts and the admin API additions it uses, over HTTP (the page in a real browser is in
/// `ControlPageBrowserTests`).
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct ControlPageTests {
    @Test func aBrowser_getsThePageUnderAStrictPolicy() async throws {
        try await withTestServer { server, _ in
            let page = try await exchange(server, get("/__stub/", "Accept: text/html,application/xhtml+xml\r\n"))
            #expect(page.status == 200)
            #expect(page.header("Content-Type") == "text/html; charset=utf-8")
            #expect(page.header("Content-Security-Policy")?.contains("script-src 'self'") == true)
            #expect(page.text.contains(#"<script src="/__stub/control.js" defer></script>"#))
            #expect(!page.text.contains("http://") && !page.text.contains("https://"), "nothing from the network")
            let script = try await exchange(server, get("/__stub/control.js"))
            #expect(script.header("Content-Type") == "text/javascript; charset=utf-8")
            #expect(!script.text.contains("innerHTML"), "values are shown as text, never as markup")
            #expect(
                try await exchange(server, get("/__stub/control.css")).header("Content-Type")
                    == "text/css; charset=utf-8")
        }
    }

    @Test func aTool_getsTheListOfEndpoints() async throws {
        try await withTestServer { server, _ in
            let index = try await exchange(server, get("/__stub", "Accept: application/json\r\n")).json()
            #expect((index["endpoints"] as? [String])?.contains("GET /__stub/journal") == true)
            #expect((index["page"] as? String)?.hasSuffix("/__stub/ in a browser") == true)
        }
    }

    @Test func journalAfter_returnsOnlyNewerEntries() async throws {
        try await withTestServer { server, _ in
            for index in 1...3 { _ = try await exchange(server, get("/albums/\(index)")) }
            let page = try await exchange(server, get("/__stub/journal?after=1")).json()
            #expect((page["entries"] as? [[String: Any]])?.map { $0["id"] as? Int } == [2, 3])
        }
    }

    @Test func health_carriesTheLastReload() async throws {
        try await withTestServer { server, fixtures in
            #expect(try await exchange(server, get("/__stub/health")).json()["lastReload"] == nil)
            try fixtures.write("api/stubs.json", "{")
            _ = try await exchange(server, "POST /__stub/reload HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
            let report = try await exchange(server, get("/__stub/health")).json()["lastReload"] as? [String: Any]
            #expect(report?["succeeded"] as? Bool == false)
            #expect((report?["problems"] as? [[String: Any]])?.first?["file"] as? String == "api/stubs.json")
            #expect(report?["stubs"] as? Int == 6, "still serving the previous catalog")
        }
    }
}

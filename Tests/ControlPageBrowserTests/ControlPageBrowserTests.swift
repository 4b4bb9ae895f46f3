// These tests run chromedriver and Chromium as processes: compiled only where a test can start one.
#if os(macOS) || os(Linux)
    import Foundation
    import StubTestSupport
    import StubContracts
    import StubServer
    import TestTurns
    import Testing

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// The control page in headless Chromium against a running server: real clicks and key presses, live updates,
    /// near-miss tables, and markup from a request shown as text.
    @Suite(
        .takesTurns(.heavy),
        .timeLimit(.minutes(1)), .serialized,
        .enabled(if: Browser.isAvailable, "needs chromium and chromium-driver (CI installs them)"))
    struct ControlPageBrowserTests {
        /// A copy of `MockData/` (what it holds, in the root of `body`'s folder), so that the test can break a
        /// fixture and reload.
        private func withMockDataCopy(_ body: (TemporaryFixtures) async throws -> Void) async throws {
            let copy = try TemporaryFixtures()
            defer { copy.remove() }
            let mockData = StubCatalog.findFolder()!
            for entry in try FileManager.default.contentsOfDirectory(atPath: mockData.path) {
                try FileManager.default.copyItem(at: mockData.appendingPathComponent(entry), to: copy.url(entry))
            }
            try await body(copy)
        }

        /// A session whose requests give up after 5 s without an answer, not URLSession's default 60 s.
        private static func session() -> URLSession {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = 5
            configuration.timeoutIntervalForResource = 10
            return URLSession(configuration: configuration)
        }

        private func variant(_ server: StubServer, _ path: String) async throws -> String? {
            let (_, response) = try await Self.session().data(
                from: URL(string: server.baseURL.absoluteString + path)!)
            return (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "X-Stub-Variant")
        }

        /// A resource's items on the page: what the app creates appears, an edit saved replaces them, a refusal is
        /// said, and reset shows the seed again.
        @Test func thePage_showsAndEditsAResourcesItems() async throws {
            let stubs =
                #"{"stubs": [{"name": "favorites", "request": {"path": "/favorites"}, "resource": {"seed": [{"id": 1, "title": "Seed"}]}, "variants": {"good": {}, "bad": {"body": "{"}, "nil": {"body": ""}}}]}"#
            let fixtures = try TemporaryFixtures(["api/stubs.json": stubs])
            defer { fixtures.remove() }
            try await withStubServer(fixtures: fixtures.root) { server in
                try await Browser.withSession { browser in
                    try await browser.open(URL(string: server.baseURL.absoluteString + "/__stub/")!)
                    let box = #"[data-resource="favorites"] textarea"#
                    // The box may not be there yet (the page lists the resources after it loads): nothing shown.
                    func shown() async throws -> String {
                        try await browser.execute("return document.querySelector('\(box)')?.value") as? String ?? ""
                    }
                    try await waitUntil("the seed to be shown", every: .milliseconds(20)) {
                        try await shown().contains("Seed")
                    }
                    var request = URLRequest(url: URL(string: server.baseURL.absoluteString + "/favorites")!)
                    request.httpMethod = "POST"
                    request.httpBody = Data(#"{"title": "Added by the app"}"#.utf8)
                    let (_, response) = try await Self.session().data(for: request)
                    #expect((response as? HTTPURLResponse)?.statusCode == 201)
                    try await waitUntil("the app's item to be shown", every: .milliseconds(20)) {
                        try await shown().contains("Added by the app")
                    }

                    // An edit, saved with the button, replaces the server's items. The box is focused first, as a
                    // person's click would: the page leaves a box being edited alone.
                    let edit = try await browser.find(box)
                    try await browser.click(edit)
                    _ = try await browser.execute("document.querySelector('\(box)').value = ''")
                    try await browser.sendKeys(edit, #"[{"id": 9, "title": "Typed"}]"#)
                    try await browser.click(try await browser.find(#"[data-resource="favorites"] button"#))
                    try await waitUntil("the edit to reach the server", every: .milliseconds(20)) {
                        String(decoding: try server.items(ofResource: "favorites"), as: UTF8.self)
                            == #"[{"id":9,"title":"Typed"}]"#
                    }

                    // Items the resource cannot hold are refused, and the page says why.
                    try await browser.click(edit)
                    _ = try await browser.execute("document.querySelector('\(box)').value = ''")
                    try await browser.sendKeys(edit, "[1]")
                    try await browser.click(try await browser.find(#"[data-resource="favorites"] button"#))
                    try await waitUntil("the refusal to be said", every: .milliseconds(20)) {
                        try await browser.text("#status").contains("[0]: an item must be a JSON object")
                    }
                    #expect(
                        String(decoding: try server.items(ofResource: "favorites"), as: UTF8.self).contains("Typed"))

                    // Reset puts the seed back, and the page shows it.
                    try await browser.click(try await browser.find("#reset"))
                    try await waitUntil("the seed to be shown again", every: .milliseconds(20)) {
                        let text = try await shown()
                        return text.contains("Seed") && !text.contains("Typed")
                    }
                }
            }
        }

        /// The mutant box of a stub: an ID of its variant typed and answered makes the app's next request get that
        /// mutant; an ID it has not is refused on the page with the nearest; an empty box clears the choice; a stream
        /// stub's mutant is chosen the same way.
        @Test func thePage_answersAMutantChosenByID() async throws {
            let stubs = #"""
                {"stubs": [
                  {"name": "items", "request": {"path": "/items"}, "variants": {"good": {"headers": {"Content-Type": "application/json"}, "body": "{\"items\": [{\"name\": \"a\"}]}"}, "bad": {"body": "{"}, "nil": {"body": ""}}},
                  {"name": "answer", "request": {"path": "/answer"}, "variants": {"good": {"events": [{"event": "token", "data": "a"}, {"event": "token", "data": "b"}, {"event": "done", "data": "[DONE]"}]}, "bad": {"body": "{"}, "nil": {"body": ""}}}]}
                """#
            let fixtures = try TemporaryFixtures(["api/stubs.json": stubs])
            defer { fixtures.remove() }
            try await withStubServer(fixtures: fixtures.root) { server in
                func fetched() async throws -> (Int, String) {
                    let url = URL(string: server.baseURL.absoluteString + "/items")!
                    let (data, response) = try await Self.session().data(from: url)
                    return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
                }
                try await Browser.withSession { browser in
                    try await browser.open(URL(string: server.baseURL.absoluteString + "/__stub/")!)
                    let box = #"[data-stub="items"] input"#
                    let answer = #"[data-stub="items"] button"#
                    try await waitUntil("the stub's row", every: .milliseconds(20)) {
                        (try? await browser.find(box)) != nil
                    }
                    let input = try await browser.find(box)
                    try await browser.click(input)
                    try await browser.sendKeys(input, "items[*].name:nul")
                    try await browser.click(try await browser.find(answer))
                    try await waitUntil("the refusal to be said", every: .milliseconds(20)) {
                        try await browser.text("#status").contains("items has no mutant items[*].name:nul; nearest: ")
                    }
                    #expect(server.mutation(forStub: "items") == nil)

                    try await browser.click(input)
                    _ = try await browser.execute("document.querySelector('\(box)').value = ''")
                    try await browser.sendKeys(input, "items[*].name:null")
                    try await browser.click(try await browser.find(answer))
                    try await waitUntil("the mutant to be chosen", every: .milliseconds(20)) {
                        server.mutation(forStub: "items") == "items[*].name:null"
                    }
                    #expect(try await fetched() == (200, #"{"items":[{"name":null}]}"#))
                    // The server takes the choice before its answer reaches the page, which then says so.
                    try await waitUntil("the page to say so", every: .milliseconds(20)) {
                        try await browser.text("#status") == "items answers its mutant items[*].name:null"
                    }

                    try await browser.click(input)
                    _ = try await browser.execute("document.querySelector('\(box)').value = ''")
                    try await browser.click(try await browser.find(answer))
                    try await waitUntil("the choice to be cleared", every: .milliseconds(20)) {
                        server.mutation(forStub: "items") == nil
                    }
                    #expect(try await fetched().1 == #"{"items": [{"name": "a"}]}"#)

                    // A stream's mutant, chosen the same way: the event it drops is not sent.
                    let streamBox = #"[data-stub="answer"] input"#
                    let streamInput = try await browser.find(streamBox)
                    try await browser.click(streamInput)
                    try await browser.sendKeys(streamInput, "event[2]:dropped")
                    try await browser.click(try await browser.find(#"[data-stub="answer"] button"#))
                    try await waitUntil("the stream's mutant to be chosen", every: .milliseconds(20)) {
                        server.mutation(forStub: "answer") == "event[2]:dropped"
                    }
                    let url = URL(string: server.baseURL.absoluteString + "/answer")!
                    let stream = String(decoding: try await Self.session().data(from: url).0, as: UTF8.self)
                    #expect(stream.contains("data: a\n") && stream.contains("data: [DONE]\n"), "\(stream)")
                    #expect(!stream.contains("data: b\n"), "\(stream)")
                    try await waitUntil("the page to say so", every: .milliseconds(20)) {
                        try await browser.text("#status") == "answer answers its mutant event[2]:dropped"
                    }
                }
            }
        }

        /// A request its stub's OpenAPI operation refuses is listed with the problems, as text.
        @Test func thePage_showsWhatTheAPIContractRefuses() async throws {
            let document = """
                openapi: 3.1.0
                paths:
                  /albums:
                    get:
                      operationId: listAlbums
                      parameters: [{name: limit, in: query, required: true, schema: {type: integer}}]
                      responses: {"200": {description: ok}}
                """
            let stubs = """
                {"stubs": [{"name": "albums", "openapi": {"spec": "../catalog.yaml", "operationId": "listAlbums"},
                  "request": {"method": "GET", "path": "/albums"},
                  "variants": {"good": {"body": "[]"}, "bad": {"body": "["}, "nil": {"body": ""}}}]}
                """
            let fixtures = try TemporaryFixtures(["catalog.yaml": document, "catalog/stubs.json": stubs])
            defer { fixtures.remove() }
            try await withStubServer(fixtures: fixtures.root) { server in
                #expect(server.runtime.installContractChecks())
                try await Browser.withSession { browser in
                    try await browser.open(URL(string: server.baseURL.absoluteString + "/__stub/")!)
                    try await waitUntil("the stub to be listed", every: .milliseconds(20)) {
                        try await browser.findAll("#stubs tbody tr").count == 1
                    }
                    let (_, response) = try await Self.session().data(
                        from: URL(string: server.baseURL.absoluteString + "/albums?limit=%3Cb%3Eten%3C/b%3E")!)
                    #expect((response as? HTTPURLResponse)?.statusCode == 200)
                    try await waitUntil("the refused request to appear", every: .milliseconds(20)) {
                        try await browser.findAll("#unmatched li .violations li").count == 1
                    }
                    #expect(
                        try await browser.text("#unmatched li .violations li")
                            == #"query.limit: expected integer, got "<b>ten</b>""#)
                    #expect(
                        try await browser.execute("return document.querySelectorAll('#unmatched b').length") as? Int
                            == 0)
                }
            }
        }

        /// Chromium's own `WebSocket` against MockData's live-updates socket: the greeting, a scripted reply, a
        /// message pushed from the test, and the page listing the socket's messages as they go, then its close.
        @Test func chromiumsWebSocket_talksToTheLiveSocket_andThePageShowsItsMessages() async throws {
            try await withStubServer(fixtures: StubCatalog.findFolder()!) { server in
                try await Browser.withSession { browser in
                    try await browser.open(URL(string: server.baseURL.absoluteString + "/__stub/")!)
                    let socketURL = "ws://127.0.0.1:\(server.port)/live"
                    _ = try await browser.execute(
                        """
                        window.got = []; window.closeInfo = null;
                        window.socket = new WebSocket("\(socketURL)", ["catalog.v1"]);
                        socket.onmessage = (event) => got.push(event.data);
                        socket.onclose = (event) => { window.closeInfo = event.code + " " + event.reason; };
                        """)
                    func received() async throws -> [String] {
                        try await browser.execute("return window.got") as? [String] ?? []
                    }
                    try await waitUntil("the greeting", every: .milliseconds(20)) { try await received().count == 1 }
                    #expect(try await browser.execute("return socket.protocol") as? String == "catalog.v1")
                    _ = try await browser.execute(#"socket.send('{"type":"ping"}')"#)
                    try await waitUntil("the reply", every: .milliseconds(20)) { try await received().count == 2 }
                    #expect(server.webSockets(stub: "live-updates").send("pushed from the test") == 1)
                    try await waitUntil("the pushed message", every: .milliseconds(20)) {
                        try await received().count == 3
                    }
                    #expect(
                        try await received() == [
                            #"{"channel":"top-albums","type":"hello"}"#, #"{"type":"pong"}"#, "pushed from the test",
                        ])
                    try await waitUntil("the page to list the messages", every: .milliseconds(50)) {
                        try await browser.findAll("#requests .stream .messages li").count == 4
                    }
                    // Inside a closed <details>: read as the DOM holds it, not as shown.
                    func content(_ css: String) async throws -> String? {
                        try await browser.execute("return document.querySelector('\(css)')?.textContent") as? String
                    }
                    #expect(
                        try await content("#requests .stream .messages li:nth-child(2)")
                            == "\u{2190} " + #"{"type":"ping"}"#)
                    _ = try await browser.execute("socket.close(1000, 'done')")
                    try await waitUntil("the close", every: .milliseconds(20)) {
                        try await browser.execute("return window.closeInfo") is String
                    }
                    #expect(
                        try await browser.execute("return window.closeInfo") as? String == "1000 ",
                        "the server echoes the code")
                    try await waitUntil("the page to show the close", every: .milliseconds(50)) {
                        try await content("#requests .stream p") == "closed: 1000 done"
                    }
                }
            }
        }

        @Test func thePage_drivesTheServerAndShowsWhatArrives() async throws {
            try await withMockDataCopy { copy in
                try await withStubServer(fixtures: copy.root) { server in
                    try await Browser.withSession { browser in
                        try await browser.open(URL(string: server.baseURL.absoluteString + "/__stub/")!)
                        try await waitUntil("every stub to be listed", every: .milliseconds(20)) {
                            try await browser.findAll("#stubs tbody tr").count == server.catalog.stubs.count
                        }
                        let albums = "/api/v1/us/apple-music/top-albums/all/10/explicit.json"

                        // The keyboard: two presses of the down arrow on the picker go (automatic) -> good -> bad.
                        let picker = try await browser.find(#"select[data-stub="top-albums"]"#)
                        try await browser.sendKeys(picker, Browser.Key.arrowDown + Browser.Key.arrowDown)
                        try await waitUntil("the keyboard's choice to reach the server", every: .milliseconds(20)) {
                            server.variant(forStub: "top-albums") == "bad"
                        }
                        #expect(try await variant(server, albums) == "bad")

                        // A click on an option.
                        try await browser.click(
                            try await browser.find(#"select[data-stub="top-albums"] option[value="nil"]"#))
                        try await waitUntil("the clicked choice to reach the server", every: .milliseconds(20)) {
                            server.variant(forStub: "top-albums") == "nil"
                        }
                        #expect(try await variant(server, albums) == "nil")

                        // The server-wide picker.
                        try await browser.click(try await browser.find(#"#server-variant option[value="empty"]"#))
                        try await waitUntil("the server-wide choice to reach the server", every: .milliseconds(20)) {
                            server.serverVariant == "empty"
                        }

                        // Requests appear without a reload, newest first.
                        try await waitUntil("the requests to appear", every: .milliseconds(20)) {
                            try await browser.findAll("#requests li").count == 2
                        }
                        #expect(try await browser.text("#requests li .request-line") == "GET \(albums)")

                        // What each variant served since the server started; one never served is marked.
                        let served = #"#stubs tr[data-stub="top-albums"] .served"#
                        try await waitUntil("the served variants to be shown", every: .milliseconds(20)) {
                            try await browser.text(served).contains("nil ×1")
                        }
                        #expect(try await browser.text(served + #" [data-variant="bad"]"#) == "bad ×1")
                        #expect(try await browser.findAll(served + #" .unserved[data-variant="good"]"#).count == 1)
                        let summary = try await browser.text("#served-summary")
                        #expect(
                            summary.hasPrefix("2 of ") && summary.hasSuffix(" variants served since the server started")
                        )

                        // An unmatched request shows its near-miss table.
                        _ = try await Self.session().data(
                            from: URL(
                                string: server.baseURL.absoluteString
                                    + "/api/v1/us/apple-music/top-albums/all/10/explicit.xml")!)
                        try await waitUntil("the unmatched request to appear", every: .milliseconds(20)) {
                            try await browser.findAll("#unmatched li").count == 1
                        }
                        let table = try await browser.text("#unmatched li table")
                        #expect(table.contains("top-albums") && table.contains("path"), "\(table)")

                        // Markup in a request's path and headers is shown as text and runs nothing.
                        let client = try await RawHTTPClient(port: server.port)
                        try await client.send(
                            "GET /%3Cimg%20src=x%20onerror=window.pwned=1%3E%3Cscript%3Ewindow.pwned=2%3C/script%3E HTTP/1.1\r\n"
                                + "Host: x\r\nX-Note: <b onmouseover=window.pwned=3>bold</b>\r\n\r\n")
                        _ = try await client.readResponse()
                        try await waitUntil("the hostile request to appear", every: .milliseconds(20)) {
                            try await browser.findAll("#unmatched li").count == 2
                        }
                        let line = try await browser.text("#unmatched li .request-line")
                        #expect(line == "GET /<img src=x onerror=window.pwned=1><script>window.pwned=2</script>")
                        let injected = try await browser.execute(
                            "return document.querySelectorAll('#requests img, #requests script, #requests b, #unmatched img, #unmatched script').length"
                        )
                        #expect(injected as? Int == 0)
                        #expect(try await browser.execute("return window.pwned === undefined") as? Bool == true)
                        try await browser.click(try await browser.find("#requests li summary"))
                        #expect(
                            try await browser.text("#requests li table.headers").contains(
                                "<b onmouseover=window.pwned=3>bold</b>"))

                        if let path = ProcessInfo.processInfo.environment["CONTROL_PAGE_SCREENSHOT"] {
                            _ = try await browser.execute("window.scrollTo(0, 0); return true")
                            try await browser.screenshot().write(to: URL(fileURLWithPath: path))
                        }

                        // Reset from the keyboard clears the choices and the lists.
                        try await browser.sendKeys(try await browser.find("#reset"), Browser.Key.enter)
                        try await waitUntil("the reset to reach the server and the page", every: .milliseconds(20)) {
                            let cleared = try await browser.findAll("#requests li").isEmpty
                            return cleared && server.variant(forStub: "top-albums") == nil
                                && server.serverVariant == nil
                        }

                        // A broken fixture and a click on reload: the problems are shown, the old catalog serves.
                        try copy.write("albums/stubs.json", "{ broken")
                        try await browser.click(try await browser.find("#reload"))
                        try await waitUntil("the reload's problems to be shown", every: .milliseconds(20)) {
                            try await browser.findAll("#problems li").count == 1
                        }
                        #expect(try await browser.text("#problems li").hasPrefix("albums/stubs.json: "))
                        #expect(try await browser.text("#reload-line").hasPrefix("Reload failed at "))
                        #expect(try await variant(server, albums) == "good")
                    }
                }
            }
        }
    }
#endif

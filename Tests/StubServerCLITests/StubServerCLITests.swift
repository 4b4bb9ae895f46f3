// These tests run the built `stub-server` as a process: compiled only where a test can start one.
#if os(macOS) || os(Linux)
    import Foundation
    import StubTestSupport
    import TestTurns
    import Testing

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// The `stub-server` binary: commands, exit codes, and what it prints.
    @Suite(.takesTurns(.heavy), .timeLimit(.minutes(1)))
    struct StubServerCLITests {
        @Test(arguments: [
            ["--help"], ["help"], ["serve", "--help"], ["validate", "--help"], ["routes", "-h"], ["help", "routes"],
        ])
        func help_printsUsageAndExits0(_ arguments: [String]) async throws {
            let result = try await CLIRunner.run(arguments)
            #expect(result.status == 0)
            #expect(result.stdout.hasPrefix("Usage: stub-server"))
            #expect(result.stderr.isEmpty)
        }

        @Test(arguments: [
            (["--nope"], "stub-server: unknown option '--nope'"),
            (["serve", "--port"], "stub-server: --port needs a value"),
            (["serve", "--port", "99999"], "stub-server: --port must be a number from 0 to 65535, not '99999'"),
            (["launch"], "stub-server: unknown command 'launch'"),
            (["validate"], "stub-server: validate takes one fixtures folder"),
            (["routes", "a", "b"], "stub-server: routes takes one fixtures folder"),
            (["validate", "--strict", "MockData"], "stub-server: unknown option '--strict'"),
            (["serve", "--chaos", "2"], "stub-server: --chaos must be a number from 0 to 1, not '2'"),
            (["serve", "--watch=yes"], "stub-server: --watch takes no value"),
            (
                ["serve", "--max-connections", "0"],
                "stub-server: --max-connections must be a whole number above 0, not '0'"
            ),
            (
                ["serve", "--watch", "--file", "x"],
                "stub-server: --watch watches a fixtures folder; it cannot be used with --file"
            ),
            (
                ["serve", "--seed=-1"],
                "stub-server: --seed must be a whole number from 0 to 18446744073709551615, not '-1'"
            ),
        ])
        func badUsage_exits64WithUsageOnStderr(_ arguments: [String], message: String) async throws {
            let result = try await CLIRunner.run(arguments)
            #expect(result.status == 64)
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.hasPrefix(message + "\n\nUsage: stub-server"))
        }

        @Test func validate_passesMockData() async throws {
            let result = try await CLIRunner.run(["validate", "MockData"])
            #expect(result.status == 0)
            #expect(result.stdout.hasPrefix("MockData: "))
            // MockData's chat stream stands for an operation of MockData/openapi.yaml: its requests are checked.
            #expect(result.stdout.contains(" stubs, no problems; OpenAPI: "))
            #expect(result.stdout.hasSuffix(" checked, 0 problems\n"))
        }

        /// MockData's answers hold to MockData/openapi.yaml, written from the real APIs' answers.
        @Test func validateWithOpenAPI_passesMockDataAgainstItsContract() async throws {
            let result = try await CLIRunner.run(["validate", "MockData", "--openapi", "MockData/openapi.yaml"])
            #expect(result.status == 0, "\(result.stdout)")
            #expect(result.stdout.contains("stubs, no problems; OpenAPI: "))
            #expect(result.stdout.hasSuffix(" checked, 0 problems\n"))
        }

        @Test func validate_listsEveryProblemAndExits1() async throws {
            let stubs =
                #"{"stubs": [{"name": "top", "request": {"path": "/top"}, "variants": {"good": {"body": "x"}, "bad": {"bodyFile": "top.bad.json"}, "nil": {"delayMs": -1}}}]}"#
            let fixtures = try TemporaryFixtures(["albums/stubs.json": stubs])
            defer { fixtures.remove() }
            let folder = fixtures.root
            let result = try await CLIRunner.run(["validate", folder.path])
            #expect(result.status == 1)
            #expect(
                result.stdout == """
                    albums/stubs.json: stubs[0].variants.bad.bodyFile: no such file top.bad.json
                    albums/stubs.json: stubs[0].variants.nil.delayMs: must be an integer in 0...600000

                    """)
            #expect(result.stderr == "stub-server: 2 problems in \(folder.path)\n")
        }

        @Test func missingFolder_exits1WithAClearMessage() async throws {
            for arguments in [["routes", "NoSuchFolder"], ["serve", "--fixtures", "NoSuchFolder", "--port", "0"]] {
                let result = try await CLIRunner.run(arguments)
                #expect(result.status == 1)
                #expect(result.stderr.hasPrefix("stub-server: fixtures folder 'NoSuchFolder' does not exist"))
            }
        }

        @Test func routes_printsTheRouteTable() async throws {
            let result = try await CLIRunner.run(["routes", "MockData"])
            #expect(result.status == 0)
            let lines = result.stdout.split(separator: "\n")
            #expect(lines.first?.hasPrefix("METHOD  ROUTE") == true)
            #expect(
                lines.contains {
                    $0.contains("/api/v1/us/apple-music/top-albums/all/{limit}/explicit.json")
                        && $0.contains("good* bad nil")
                })
        }

        @Test func routes_showBodyMatchersAndScenarios() async throws {
            let stubs = #"""
                {"stubs": [{"name": "cart-add", "request": {"method": "POST", "path": "/cart",
                   "body": {"json": {"id": 7}, "form": {"user": {"present": true}}}},
                  "scenario": {"name": "cart", "when": "start", "then": "has-item"},
                  "variants": {"good": {"body": "x"}, "bad": {"body": "{"}, "nil": {"body": ""}}}]}
                """#
            let fixtures = try TemporaryFixtures(["shop/stubs.json": stubs])
            defer { fixtures.remove() }
            let result = try await CLIRunner.run(["routes", fixtures.root.path])
            #expect(result.status == 0)
            let line = try #require(result.stdout.split(separator: "\n").last)
            #expect(line.contains(#"/cart {body json {"id":7}; form user present}"#), "\(line)")
            #expect(line.hasSuffix("good* bad nil (scenario cart: start -> has-item)"), "\(line)")
        }

        @Test func serve_printsItsAddressServesLogsAndStopsOnSignal() async throws {
            let server = try RunningServer(["--port", "0", "--variant", "bad"])
            let first = try #require(await server.nextLine())
            let prefix = "Serving "
            #expect(first.hasPrefix(prefix) && first.contains(" stubs from MockData at http://127.0.0.1:"))
            let address = try #require(first.components(separatedBy: " at ").last.flatMap(URL.init(string:)))
            #expect(address.port != 8080 && address.port != 0)
            let connections = try #require(await server.nextLine())
            #expect(connections.hasPrefix("Accepting up to ") && connections.contains(" connections (open-file limit "))
            #expect(
                await server.nextLine()
                    == "Checking requests to 1 stub against their OpenAPI operations (--no-contracts: off)")
            #expect(await server.nextLine()?.hasPrefix("METHOD") == true)
            let url = address.appendingPathComponent("/api/v1/us/apple-music/top-albums/all/100/explicit.json")
            let (data, response) = try await URLSession.bounded().data(from: url)
            #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "X-Stub-Variant") == "bad")
            #expect(!data.isEmpty)
            let log = await server.line(containing: "GET /api/")
            #expect(
                log?.hasPrefix("GET /api/v1/us/apple-music/top-albums/all/100/explicit.json top-albums bad 200 ")
                    == true)
            #expect(log?.hasSuffix("ms") == true)
            // A mutant's line names it.
            var mutated = URLRequest(url: url)
            mutated.setValue("status:503", forHTTPHeaderField: "X-Stub-Mutation")
            _ = try await URLSession.bounded().data(for: mutated)
            let mutantLog = await server.line(containing: "mutant=")
            #expect(
                mutantLog?.hasPrefix(
                    "GET /api/v1/us/apple-music/top-albums/all/100/explicit.json top-albums bad mutant=status:503 503 ")
                    == true, "\(mutantLog ?? "no line")")
            let (status, stderr) = await server.stop(SIGINT)
            #expect(status == 0)
            #expect(stderr == "stub-server: stopped on SIGINT\n")
        }

        @Test func serve_raisesTheOpenFileLimit_andTakesConnectionsUpToWhatItAllows() async throws {
            var limit = rlimit()
            #if canImport(Glibc)
                try #require(getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0)
            #else
                try #require(getrlimit(RLIMIT_NOFILE, &limit) == 0)
            #endif
            let hard = Int(clamping: limit.rlim_max)
            guard hard > 512, hard < 1 << 20 else { return }  // nothing to raise, or no number to expect
            let server = try RunningServer(["--port", "0"], softFileLimit: 512)
            _ = try #require(await server.nextLine())
            let expected = hard - min(256, hard / 4)
            #expect(
                await server.nextLine()
                    == "Accepting up to \(expected) connections (open-file limit \(hard), raised from 512)")
            #expect(await server.stop().status == 0)
        }

        @Test func serveWithMaxConnections_answers503PastIt() async throws {
            let server = try RunningServer(["--port", "0", "--max-connections", "1"])
            let first = try #require(await server.nextLine())
            let address = try #require(first.components(separatedBy: " at ").last.flatMap(URL.init(string:)))
            #expect(await server.nextLine() == "Accepting up to 1 connections (--max-connections)")
            let port = try #require(address.port)
            let held = try await RawHTTPClient(port: port)
            try await held.send("GET /__stub/health HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(try await held.readResponse().status == 200)
            let refused = try await RawHTTPClient(port: port).readResponse()
            #expect(refused.status == 503)
            #expect(refused.text.contains("too many open connections (limit 1)"))
            #expect(await server.stop().status == 0)
        }

        /// With every descriptor in use, `accept` fails with EMFILE while the connection stays pending: the server
        /// must rest the listener instead of spinning on it, serve the connections it has, and accept again once
        /// clients leave.
        @Test func aFullDescriptorTable_pausesAcceptingWithoutSpinning_andAcceptsOnceClientsLeave() async throws {
            let server = try RunningServer(["--port", "0", "--max-connections", "1000"], fileLimit: 48)
            let started = ContinuousClock.now
            let first = try #require(await server.nextLine())
            let port = try #require(first.components(separatedBy: " at ").last.flatMap(URL.init(string:))?.port)
            let pid = server.process.pid
            // More clients than descriptors: the first ones are accepted, the rest wait in the backlog.
            var clients: [RawHTTPClient] = []
            for _ in 0..<80 { clients.append(try await RawHTTPClient(port: port)) }
            // The first client was accepted first; it asks how often accepting paused, until it has.
            var pauses = 0
            let deadline = ContinuousClock.now + .seconds(60)
            while pauses == 0 && ContinuousClock.now < deadline {
                try await clients[0].send("GET /__stub/health HTTP/1.1\r\nHost: t\r\n\r\n")
                pauses = try await clients[0].readResponse().json()["acceptPauses"] as? Int ?? 0
            }
            // CPU used while the table stays full: a measuring window, not a wait for the server.
            var ticks: Int?
            if let before = Self.cpuTicks(of: pid) {
                try await Task.sleep(for: .milliseconds(1_500))
                ticks = Self.cpuTicks(of: pid).map { $0 - before }
            }
            clients.removeAll()  // every client leaves
            let late = try await RawHTTPClient(port: port)
            try await late.send("GET /__stub/health HTTP/1.1\r\nHost: t\r\n\r\n")
            let outcome = (pauses: pauses, ticks: ticks, afterwards: try await late.readResponse())
            #expect(outcome.pauses > 0, "accepting never paused")
            if let ticks = outcome.ticks {
                // 1.5 s of a full table; a spinning loop takes every tick of the window (150 at 100 Hz).
                let perSecond = Int(sysconf(Int32(_SC_CLK_TCK)))
                #expect(ticks * 10 < perSecond * 3 / 2, "\(ticks) ticks of CPU in 1.5 s with the table full")
            }
            #expect(outcome.afterwards.status == 200)
            #expect((try outcome.afterwards.json()["acceptPauses"] as? Int ?? 0) >= outcome.pauses)
            let stopped = await server.stop()
            let seconds = Int((ContinuousClock.now - started).components.seconds)
            #expect(stopped.status == 0)
            // One line, not one per failed accept: at most one every ten seconds while the shortage lasts (a busy
            // machine made it last over ten).
            let lines = stopped.stderr.split(separator: "\n").filter { $0.contains("out of file descriptors") }
            #expect(
                (1...(1 + seconds / 10)).contains(lines.count),
                "\(lines.count) lines in \(seconds) s: \(stopped.stderr)")
            #expect(
                lines.first?.hasPrefix("stub-server: out of file descriptors (EMFILE: ") == true, "\(stopped.stderr)")
        }

        /// User plus system CPU ticks a process has used (Linux's `/proc/PID/stat`), nil where there is no `/proc`.
        static func cpuTicks(of pid: Int32) -> Int? {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            // After "pid (comm)": state is field 3; utime and stime are fields 14 and 15.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
            return user + system
        }

        @Test func serveWithChaos_printsTheSeedAndBreaksAnswers() async throws {
            let server = try RunningServer(["--port", "0", "--chaos", "1", "--seed", "7"])
            let first = try #require(await server.nextLine())
            let address = try #require(first.components(separatedBy: " at ").last.flatMap(URL.init(string:)))
            #expect(
                await server.line(containing: "Random faults:")
                    == "Random faults: chaos 1.0, seed 7 (replay this run with --seed 7)")
            let url = address.appendingPathComponent("/api/v1/us/apple-music/top-albums/all/100/explicit.json")
            await #expect(throws: (any Error).self, "every stubbed answer is a fault at rate 1") {
                _ = try await URLSession.bounded().data(from: url)
            }
            let health = try await URLSession.bounded().data(
                from: address.appendingPathComponent("/__stub/health"))
            #expect(String(decoding: health.0, as: UTF8.self).contains(#""seed" : "7""#), "admin requests never draw")
            #expect(await server.stop().status == 0)
        }

        @Test func serveWatch_writesTheReadyFileAndReportsEachReload() async throws {
            let stub = { (body: String) in
                #"{"stubs": [{"name": "a", "request": {"path": "/a"}, "variants": {"good": {"body": "\#(body)"}, "bad": {"body": "{"}, "nil": {"body": ""}}}]}"#
            }
            // The ready file beside the watched folder, not in it.
            let fixtures = try TemporaryFixtures(["watched/api/stubs.json": stub("one")])
            defer { fixtures.remove() }
            let folder = fixtures.url("watched")
            let readyFile = fixtures.url("ready")
            let server = try RunningServer([
                "serve", "--fixtures", folder.path, "--port", "0", "--watch", "--ready-file", readyFile.path,
            ])
            let first = try #require(await server.nextLine())
            let address = try #require(first.components(separatedBy: " at ").last)
            #expect(await server.line(containing: "Watching") == "Watching \(folder.path) for changes")
            try await waitUntil("the ready file") { FileManager.default.fileExists(atPath: readyFile.path) }
            #expect(try String(contentsOf: readyFile, encoding: .utf8) == address + "\n")

            try fixtures.write("watched/api/stubs.json", stub("two"))
            #expect(
                await server.line(containing: "reload")
                    == "stub-server: reloaded (api/stubs.json changed): serving 1 stubs")
            try fixtures.write("watched/api/stubs.json", "{")
            #expect(
                await server.line(containing: "reload")
                    == "stub-server: reload failed (api/stubs.json changed): 1 problem; still serving the previous 1 stubs"
            )
            #expect(await server.nextLine()?.hasPrefix("  api/stubs.json: invalid JSON") == true)
            let (data, _) = try await URLSession.bounded().data(from: URL(string: address + "/a")!)
            #expect(String(decoding: data, as: UTF8.self) == "two", "the last good catalog still answers")

            #expect(await server.stop().status == 0)
            #expect(!FileManager.default.fileExists(atPath: readyFile.path), "the ready file goes with the server")
        }

        @Test func serveFile_answersEveryGetWithTheFile() async throws {
            let file = CLIRunner.packageRoot.appendingPathComponent("MockData/albums/artwork.png")
            let server = try RunningServer(["serve", "--file", file.path, "--port", "0"])
            let first = try #require(await server.nextLine())
            #expect(first.hasPrefix("Serving 1 stubs from \(file.path) at http://127.0.0.1:"))
            let address = try #require(first.components(separatedBy: " at ").last.flatMap(URL.init(string:)))
            let (data, response) = try await URLSession.bounded().data(
                from: address.appendingPathComponent("any/path"))
            #expect((response as? HTTPURLResponse)?.mimeType == "image/png")
            #expect(data == FileManager.default.contents(atPath: file.path))
            #expect(await server.stop().status == 0)
        }

        @Test func serve_onABusyPortExits1() async throws {
            let holder = try RunningServer(["--port", "0"])
            let first = try #require(await holder.nextLine())
            let port = try #require(first.components(separatedBy: ":").last)
            let result = try await CLIRunner.run(["--port", port])
            #expect(result.status == 1)
            #expect(
                result.stderr.contains(
                    "cannot listen on 127.0.0.1:\(port): bind 127.0.0.1:\(port) failed: Address already in use"))
            #expect(await holder.stop().status == 0)
        }

        // MARK: record and serve --proxy, run by the sibling stub-server-record

        @Test func record_isRefusedInCI() async throws {
            let result = try await CLIRunner.run(
                ["record", "--upstream", "http://127.0.0.1:9", "--fixtures", "/tmp/never-\(UUID().uuidString)"],
                environment: ["CI": "true"])
            #expect(result.status == 1)
            #expect(result.stderr.contains("recording is refused because CI is set"))
            #expect(result.stderr.contains("--allow-in-ci"))
        }

        @Test func record_badUsageExits64() async throws {
            let result = try await CLIRunner.run(["record", "--mode", "sometimes", "--upstream", "http://a"])
            #expect(result.status == 64)
            #expect(result.stderr.hasPrefix("stub-server: --mode must be missing or all, not 'sometimes'"))
        }

        @Test func record_writesValidFixturesFromTheUpstream() async throws {
            let fixtures = try TemporaryFixtures()
            defer { fixtures.remove() }
            let folder = fixtures.url("recording")
            let upstream = try RunningServer(["--port", "0"])
            let upstreamURL = try #require(await upstream.nextLine()?.components(separatedBy: " at ").last)
            let recorder = try RunningServer(
                ["record", "--upstream", upstreamURL, "--fixtures", folder.path, "--api", "albums", "--port", "0"],
                environment: ["CI": nil])
            let first = try #require(await recorder.nextLine())
            #expect(
                first.hasPrefix("Recording requests no stub matches from \(upstreamURL) into \(folder.path)/albums at ")
            )
            let address = try #require(first.components(separatedBy: " at ").last.flatMap(URL.init(string:)))
            let path = "/api/v1/us/apple-music/top-albums/all/100/explicit.json"
            let (data, response) = try await URLSession.bounded().data(
                from: address.appendingPathComponent(path))
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "X-Stub-Forwarded") == "recorded")
            #expect(
                await recorder.line(
                    containing: "recorded GET \(path) as get-api-v1-us-apple-music-top-albums-all-100-explicit-json")
                    != nil
            )
            #expect(await recorder.stop(SIGINT).status == 0)
            #expect(await upstream.stop().status == 0)
            let recorded = folder.appendingPathComponent(
                "albums/get-api-v1-us-apple-music-top-albums-all-100-explicit-json.good.json")
            #expect(FileManager.default.contents(atPath: recorded.path) == data)
            let validation = try await CLIRunner.run(["validate", folder.path])
            #expect(validation.status == 0, "\(validation.stdout)\(validation.stderr)")
        }

        @Test func serveProxy_answersUnstubbedRequestsFromTheUpstream() async throws {
            let upstream = try RunningServer(["--port", "0"])
            let upstreamURL = try #require(await upstream.nextLine()?.components(separatedBy: " at ").last)
            let fixtures = try TemporaryFixtures()
            defer { fixtures.remove() }
            let empty = fixtures.url("proxy")
            let proxy = try RunningServer(["serve", "--proxy", upstreamURL, "--fixtures", empty.path, "--port", "0"])
            let first = try #require(await proxy.nextLine())
            #expect(first.hasPrefix("Proxying requests no stub matches to \(upstreamURL), serving \(empty.path) at "))
            let address = try #require(first.components(separatedBy: " at ").last.flatMap(URL.init(string:)))
            let (_, response) = try await URLSession.bounded().data(
                from: address.appendingPathComponent("/api/v1/us/apple-music/top-albums/all/100/explicit.json"))
            #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "X-Stub-Forwarded") == "proxied")
            #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "X-Stub-Name") == "top-albums")
            #expect(await proxy.stop(SIGINT).status == 0)
            #expect(await upstream.stop().status == 0)
            #expect((try? FileManager.default.contentsOfDirectory(atPath: empty.path)) ?? [] == [], "nothing written")
        }

        @Test func importHAR_writesFixtures_andAMalformedFileExits1WritingNothing() async throws {
            let fixtures = try TemporaryFixtures([
                "good.har":
                    #"{"log": {"entries": [{"request": {"method": "GET", "url": "https://api.test/items?page=1"}, "response": {"status": 200, "headers": [{"name": "Content-Type", "value": "application/json"}], "content": {"text": "[1]"}}}]}}"#
            ])
            defer { fixtures.remove() }
            let folder = fixtures.root
            let good = fixtures.url("good.har")
            let imported = try await CLIRunner.run([
                "import", "har", good.path, "--fixtures", folder.appendingPathComponent("out").path,
            ])
            #expect(imported.status == 0, "\(imported.stderr)")
            #expect(imported.stdout == "recorded GET /items?page=1 as get-items (good; bad and nil generated)\n")
            #expect(try await CLIRunner.run(["validate", folder.appendingPathComponent("out").path]).status == 0)

            try fixtures.write("bad.har", #"{"log": {"entries": [{"request": {"method": "GET"}}]}}"#)
            let bad = fixtures.url("bad.har")
            let refused = try await CLIRunner.run([
                "import", "har", bad.path, "--fixtures", folder.appendingPathComponent("none").path,
            ])
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("log.entries[0].response: missing, or not an object (nothing was written)"))
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("none").path))
        }

        @Test func drift_exits1WhenAFixtureKeyIsGoneUpstream_and0WhenTheShapesAgree() async throws {
            let upstream = try RunningServer(["--port", "0"])
            let upstreamURL = try #require(await upstream.nextLine()?.components(separatedBy: " at ").last)
            // The upstream is killed when `upstream` goes (RunningServer's deinit).
            let same = try await CLIRunner.run(
                [
                    "drift", "--upstream", upstreamURL, "--upstream-timeout", "10", "--api", "albums",
                ], limit: 60)
            #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
            #expect(same.stdout.contains("checked "))
            #expect(same.stdout.contains(" 0 breaking, 0 new"))

            let path = "/api/v1/us/apple-music/top-albums/all/100/explicit.json"
            let stubs = """
                {"stubs": [{"name": "feed", "request": {"path": "\(path)"},
                  "variants": {"good": {"headers": {"Content-Type": "application/json"}, "body": "{\\"feed\\": {\\"removedKey\\": 1}}"},
                               "bad": {"body": "{"}, "nil": {"body": ""}}}]}
                """
            let fixtures = try TemporaryFixtures(["albums/stubs.json": stubs])
            defer { fixtures.remove() }
            let folder = fixtures.root
            let drifted = try await CLIRunner.run(
                [
                    "drift", "--upstream", upstreamURL, "--upstream-timeout", "10", "--fixtures", folder.path,
                ], limit: 60)
            #expect(drifted.status == 1)
            #expect(
                drifted.stdout.contains("albums/stubs.json: feed: feed.removedKey: missing upstream (fixture: number)"))
        }

        /// The iTunes Search API labels its JSON `text/javascript`: drift reads the body, not the label.
        @Test func drift_exits1WhenATextJavascriptAnswerLostAKey() async throws {
            let upstream = try RunningServer(["--port", "0"])
            let upstreamURL = try #require(await upstream.nextLine()?.components(separatedBy: " at ").last)
            // The upstream is killed when `upstream` goes (RunningServer's deinit).
            let stubs = #"""
                {"stubs": [{"name": "search", "request": {"path": "/search",
                    "query": {"term": "jack johnson", "offset": "0", "limit": "25"}},
                  "variants": {"good": {"headers": {"Content-Type": "text/javascript; charset=utf-8"},
                                        "body": "{\"resultCount\": 1, \"results\": [{\"trackName\": \"x\", \"lyricist\": \"y\"}]}"},
                               "bad": {"body": "{"}, "nil": {"body": ""}}}]}
                """#
            let fixtures = try TemporaryFixtures(["itunes-search/stubs.json": stubs])
            defer { fixtures.remove() }
            let folder = fixtures.root
            let drifted = try await CLIRunner.run(
                [
                    "drift", "--upstream", upstreamURL, "--upstream-timeout", "10", "--fixtures", folder.path,
                ], limit: 60)
            #expect(drifted.status == 1, "\(drifted.stdout)\(drifted.stderr)")
            #expect(
                drifted.stdout.contains(
                    "itunes-search/stubs.json: search: results[].lyricist: missing upstream (fixture: string)"),
                "\(drifted.stdout)")
            #expect(!drifted.stdout.contains("trackName"), "\(drifted.stdout)")
        }
    }
#endif

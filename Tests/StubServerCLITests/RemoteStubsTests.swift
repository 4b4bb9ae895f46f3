// These tests run the built `stub-server` as a process: compiled only where a test can start one.
#if os(macOS) || os(Linux)
    import Foundation
    import Locking
    import SharedTestSupport
    import StubCore
    import StubHarness
    import StubServer
    import StubServerRemote
    import StubServerTesting
    import StubTestSupport
    import TestTurns
    import Testing

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// `RemoteStubs` driving `stub-server serve` and an app's own stubs (`StubbedApp`), each in a process of its own,
    /// through the admin API: the other process's answers follow its choices, its journal and near misses come back,
    /// and every message and error is the one a server in the test's own process gives.
    @Suite(.takesTurns, .timeLimit(.minutes(1)))
    struct RemoteStubsTests {
        static let stubsJSON = #"""
            {
              "stubs": [
                {
                  "name": "item",
                  "request": { "path": "/items/{id}", "query": { "limit": { "matches": "^[0-9]+$" } } },
                  "variants": { "good": { "body": "one" }, "bad": { "body": "{" }, "nil": { "body": "" } }
                },
                {
                  "name": "login",
                  "request": { "method": "POST", "path": "/login" },
                  "scenario": { "name": "session", "then": "in" },
                  "variants": { "good": { "body": "welcome" }, "bad": { "body": "{" }, "nil": { "body": "" } }
                }
              ]
            }
            """#

        /// The same calls on a control and what each said, in order: answers, errors, messages, near misses.
        /// `get` fetches a target where the stubs answer and says `STATUS BODY`, a line break as `\n`.
        static func script(
            _ control: any StubControl, fixtures: TemporaryFixtures, get: (String) async throws -> String
        ) async throws -> [String] {
            var said: [String] = []
            func attempt(_ call: () async throws -> Void) async -> String {
                do {
                    try await call()
                    return "done"
                } catch {
                    return "\(type(of: error)): \(error)"
                }
            }
            try await control.setVariant("bad", forStub: "item")
            said.append(try await control.variant(forStub: "item") ?? "-")
            said.append(try await get("/items/1?limit=5"))
            said.append(try await get("/items/2?limit=ten"))
            said.append(try await control.requestCountMismatch(JournalQuery(stub: "item"), count: 2) ?? "matched")
            said += try await control.unmatchedReports()
            said.append(await attempt { try await control.setVariant("gone", forStub: "item") })
            said.append(await attempt { try await control.setVariant("good", forStub: "nope") })
            said.append(await attempt { try await control.setScenario("session", to: "out") })
            try await control.setScenario("session", to: "in")
            said.append("\(try await control.scenarios)")
            try await control.setMutation("status:503", forStub: "item")
            said.append(try await get("/items/3?limit=1"))
            said.append(try await control.mutation(forStub: "item") ?? "-")
            said.append("\(try await control.requestCount(JournalQuery(path: "/items/3", query: ["limit": "1"])))")
            try await control.reset()
            said.append("\(try await control.requestCount(JournalQuery())) \(try await control.scenarios)")
            said.append(try await get("/items/4?limit=1"))
            try fixtures.write("api/stubs.json", #"{"stubs": [{"name": "item", "request": {"path": 7}}]}"#)
            said.append(await attempt { try await control.reload() })
            said.append(try await get("/items/5?limit=1"))
            try fixtures.write("api/stubs.json", stubsJSON)
            said.append("\(try await control.reload().stubs)")
            return said
        }

        /// `STATUS BODY` of a GET of `target` at `base`, a line break in the body as `\n` (as `StubbedApp` says it).
        static func get(_ target: String, from base: URL) async throws -> String {
            let (data, response) = try await URLSession.bounded().data(from: URL(string: base.absoluteString + target)!)
            let body = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\n", with: "\\n")
            return "\((response as? HTTPURLResponse)?.statusCode ?? 0) \(body)"
        }

        @Test func aServerInAnotherProcess_andAnAppsOwnStubs_areControlledRemotely_andSayWhatALocalServerSays()
            async throws
        {
            let fixtures = try TemporaryFixtures(["api/stubs.json": Self.stubsJSON])
            defer { fixtures.remove() }
            let local = try StubServer.start(fixtures: fixtures.root)
            let heard = try await Self.script(local, fixtures: fixtures) { try await Self.get($0, from: local.baseURL) }
            await local.stop()

            let child = try RunningServer(["--fixtures", fixtures.root.path, "--port", "0"])
            let first = try #require(await child.nextLine())
            let address = try #require(first.components(separatedBy: " at ").last.flatMap(URL.init(string:)))
            let remote = RemoteStubs(url: address)
            let heardRemotely = try await Self.script(remote, fixtures: fixtures) {
                try await Self.get($0, from: address)
            }
            #expect(heardRemotely == heard)

            // Stubs inside an app, controlled through its control port alone, say the same.
            let app = try await StubsInAnAppTests.App(fixtures: fixtures.root)
            let heardInTheApp = try await Self.script(app.remote, fixtures: fixtures) {
                try await app.fetch("https://api.example.com" + $0)
            }
            #expect(heardInTheApp == heard)
            #expect(await app.end() == .exited(0))
            #expect(heard[0] == "bad")
            #expect(heard[1] == "200 {")
            #expect(heard[2].hasPrefix("404 "))
            #expect(
                heard[3]
                    == "expected 2 any method any path (stub item), got 1; closest requests:\n"
                    + #"  GET /items/2?limit=ten -> 404: stub: expected "item", got none"#)
            #expect(heard[4].hasPrefix("no stub matched GET /items/2?limit=ten (answered 404); closest stubs:\n"))
            #expect(heard[4].contains(#"query.limit expected matches /^[0-9]+$/, got "ten""#))
            #expect(heard[5].hasPrefix(#"StubServerError: stub "item" has no variant "gone"; variants: "#))
            #expect(heard[6] == #"StubServerError: no stub named "nope"; stubs: item, login"#)
            #expect(heard[7] == #"StubServerError: scenario "session" has no state "out"; states: start, in"#)
            #expect(heard[8] == #"["session": "in"]"#)
            #expect(heard[9].hasPrefix("503"))
            #expect(heard[10] == "status:503")
            #expect(heard[11] == "1")
            #expect(heard[12] == #"0 ["session": "start"]"#)
            #expect(heard[13] == "200 one")
            #expect(
                heard[14]
                    == "CatalogError: 2 problems in fixtures at \(fixtures.root.path):\n"
                    + "  api/stubs.json: stubs[0].request.path: must be a string, not a number\n"
                    + "  api/stubs.json: stubs[0].variants: missing")
            #expect(heard[15] == "200 one", "a failed reload keeps the previous catalog")
            #expect(heard[16] == "2")
            await remote.stop()
            #expect(await child.stop().status == 0)
        }

        /// The strict helpers on stubs in another process: an unmatched request there fails the test here, with the
        /// same near-miss message.
        @Test func aRequestTheOtherProcessCouldNotMatch_failsTheTestHere() async throws {
            let fixtures = try TemporaryFixtures(["api/stubs.json": Self.stubsJSON])
            defer { fixtures.remove() }
            let child = try RunningServer(["--fixtures", fixtures.root.path, "--port", "0"])
            let first = try #require(await child.nextLine())
            let address = try #require(first.components(separatedBy: " at ").last.flatMap(URL.init(string:)))
            let trait = StubServerTrait.stubServer(transport: .remote(address), variants: ["item": "nil"])
            let test = try #require(Test.current)
            let reports = Lock<[String]>([])
            let unmatched =
                "no stub matched GET /items/1 (answered 404); closest stubs:\n  item (api/stubs.json): query.limit"
            try await withKnownIssue {
                try await trait.provideScope(for: test, testCase: Test.Case.current) {
                    let remote = try #require(TestStubs.current?.remote)
                    #expect(try await remote.variant(forStub: "item") == "nil")
                    _ = try await URLSession.bounded().data(from: URL(string: address.absoluteString + "/items/1")!)
                    await expectRequests(JournalQuery(stub: "item"), count: 0)
                    await expectNoUnmatchedRequests()
                    _ = try await URLSession.bounded().data(from: URL(string: address.absoluteString + "/items/2")!)
                }
            } matching: { issue in
                let text = issue.comments.map(\.rawValue).joined()
                reports.withLock { $0.append(text) }
                return text.hasPrefix(unmatched) || text.hasPrefix(unmatched.replacingOccurrences(of: "/1", with: "/2"))
            }
            // /items/1 from the helper only (the trait does not report it again), /items/2 from the trait at the
            // test's end, which says how to permit it.
            #expect(reports.withLock { $0.count } == 2)
            #expect(reports.withLock { $0.first?.hasPrefix(unmatched) } == true)
            #expect(
                reports.withLock {
                    $0.last?.hasSuffix("(strict .stubServer: pass unmatched: .allow to permit unmatched requests)")
                } == true)
            #expect(await child.stop().status == 0)
        }

        @Test func nothingAnswering_isAControlFailureNamingTheCall() async throws {
            let refusing = try RefusingPort()
            let remote = RemoteStubs(url: refusing.baseURL)
            do {
                try await remote.setVariant("bad", forStub: "item")
                Issue.record("a call to nothing succeeded")
            } catch {
                guard case .controlFailed(let url, let reason) = error else { throw error }
                #expect(url == refusing.baseURL.absoluteString)
                #expect(reason.hasPrefix("PUT /__stub/stubs/item/variant: "), "\(reason)")
            }
            await remote.stop()
        }
    }
#endif

#if os(macOS) || os(Linux)
    import ChildProcesses
    import StubServerInProcess

    /// An app that starts its stubs from its launch environment (`StubbedApp`, as an app's debug build would), driven
    /// from this process through the control port alone: its answers follow the choices made here, its requests are
    /// in the journal here, and an unmatched one fails the test here with the near-miss message.
    @Suite(.takesTurns, .timeLimit(.minutes(1)))
    struct StubsInAnAppTests {
        /// The app, running, with its control.
        final class App {
            let process: ChildProcess
            let remote: RemoteStubs

            init(fixtures: URL, variants: [String: String] = [:], environment extra: [String: String] = [:])
                async throws
            {
                var environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
                environment.merge(
                    InProcessStubs.launchEnvironment(fixtures: fixtures.path, variants: variants, controlPort: 0)
                ) { $1 }
                process = try ChildProcess(
                    CLIRunner.stubbedApp.path, environment: environment, input: true, stderr: .discard)
                let first = try await Self.line(of: process, after: 0)
                guard first.hasPrefix("control http://127.0.0.1:"), let url = URL(string: String(first.dropFirst(8)))
                else {
                    throw StubServerError.controlFailed(url: "-", reason: "the app said \(first.debugDescription)")
                }
                remote = RemoteStubs(url: url)
            }

            private var seen = 1

            /// What the app printed after fetching `url` in its process.
            func fetch(_ url: String) async throws -> String {
                try process.writeInput(url + "\n")
                let line = try await Self.line(of: process, after: seen)
                seen += 1
                return line
            }

            /// The line numbered `index` (from 0) of what `process` printed, waited for (bounded).
            static func line(of process: ChildProcess, after index: Int) async throws -> String {
                var lines: [Substring] = []
                try await waitUntil("line \(index + 1) from the app", every: .milliseconds(2)) {
                    lines = String(decoding: process.stdout!.received, as: UTF8.self).split(
                        separator: "\n", omittingEmptySubsequences: false
                    ).dropLast()
                    return lines.count > index
                }
                return String(lines[index])
            }

            func end() async -> ChildProcess.Termination? {
                await remote.stop()
                process.closeInput()
                return await process.exit(within: 60)
            }
        }

        static let stubsJSON = #"""
            {
              "hosts": ["api.example.com"],
              "stubs": [
                {
                  "name": "item",
                  "request": { "path": "/items/{id}" },
                  "variants": { "good": { "body": "one" }, "bad": { "body": "{" }, "nil": { "body": "" } }
                }
              ]
            }
            """#

        @Test func anAppsOwnStubs_areControlledFromTheTest_throughTheControlPortAlone() async throws {
            let fixtures = try TemporaryFixtures(["api/stubs.json": Self.stubsJSON])
            defer { fixtures.remove() }
            let app = try await App(fixtures: fixtures.root, variants: ["item": "nil"])
            let remote = app.remote
            #expect(try await remote.variant(forStub: "item") == "nil", "from the launch environment")
            #expect(try await app.fetch("https://api.example.com/items/1") == "200 ")
            try await remote.setVariant("bad", forStub: "item")
            #expect(try await app.fetch("https://api.example.com/items/2") == "200 {", "a variant chosen here")
            let journal = try await remote.journal(JournalQuery(stub: "item"))
            #expect(journal.map(\.target) == ["/items/1", "/items/2"])
            #expect(journal.map(\.variant) == ["nil", "bad"])
            // The control port serves the admin API and nothing else.
            let (_, response) = try await URLSession.bounded().data(
                from: remote.url.appendingPathComponent("items/3"))
            #expect((response as? HTTPURLResponse)?.statusCode == 404)
            #expect(try await remote.requestCount(JournalQuery(path: "/items/3")) == 0)
            // An unmatched request in the app fails the test here, with the closest stubs.
            #expect(try await app.fetch("https://api.example.com/itemz/4").hasPrefix("404 "))
            await withKnownIssue {
                await expectNoUnmatchedRequests(on: remote)
            } matching: { issue in
                issue.comments.map(\.rawValue).joined().hasPrefix(
                    "no stub matched GET /itemz/4 (answered 404); closest stubs:\n  item (api/stubs.json): path")
            }
            try await remote.reset()
            #expect(try await remote.unmatchedRequests().isEmpty)
            #expect(try await app.fetch("https://api.example.com/items/5") == "200 one", "reset: back to good")
            try fixtures.write("api/stubs.json", Self.stubsJSON.replacingOccurrences(of: "one", with: "uno"))
            #expect(try await remote.reload().stubs == 1)
            #expect(try await app.fetch("https://api.example.com/items/6") == "200 uno", "reloaded")
            #expect(await app.end() == .exited(0))
        }

        /// The app records its answers for the coverage report in the folder of its environment, each named after
        /// the test that drives it from here: as many as its journal holds, no more, no fewer.
        @Test func anAppsOwnStubs_recordTheirAnswers_forTheTestThatDrivesThem() async throws {
            let fixtures = try TemporaryFixtures(["api/stubs.json": Self.stubsJSON])
            defer { fixtures.remove() }
            let folder = fixtures.url("served")
            let app = try await App(fixtures: fixtures.root, environment: ["STUB_COVERAGE_DIR": folder.path])
            let driven = try await StubTransport.remote(app.remote.url).start(
                TestStubSettings(
                    fixtures: nil, variants: ["item": "bad"], serverVariant: nil, contracts: false,
                    test: "Tests.App/drivenFromHere()"))
            #expect(try await app.fetch("https://api.example.com/items/1") == "200 {")
            #expect(try await app.fetch("https://api.example.com/itemz/2").hasPrefix("404 "))
            let journal = try await driven.journal(JournalQuery())
            await driven.stop()
            #expect(await app.end() == .exited(0))
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            let records = try files.flatMap { file in
                try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8).split(separator: "\n")
            }.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            #expect(records.count == journal.count)
            #expect(
                records.map { $0?["test"] as? String } == ["Tests.App/drivenFromHere()", "Tests.App/drivenFromHere()"])
            #expect(records.map { $0?["variant"] as? String } == ["bad", nil])
            #expect(records.map { $0?["transport"] as? String } == ["in process", "in process"])
        }

        @Test func aLaunchEnvironmentTheAppCannotRead_isSaidSo() async throws {
            let fixtures = try TemporaryFixtures(["api/stubs.json": Self.stubsJSON])
            defer { fixtures.remove() }
            var environment = ProcessInfo.processInfo.environment
            environment.merge(InProcessStubs.launchEnvironment(fixtures: fixtures.root.path)) { $1 }
            environment[InProcessStubs.Environment.variants] = "item"
            let process = try ChildProcess(CLIRunner.stubbedApp.path, environment: environment, stderr: .discard)
            #expect(
                try await App.line(of: process, after: 0)
                    == #"error: STUB_VARIANTS must be stub=variant pairs, comma-separated, not "item""#)
            #expect(await process.exit(within: 60) == .exited(1))
            #expect(try InProcessStubs.startFromEnvironment([:]) == nil, "no fixtures: nothing done")
        }
    }
#endif

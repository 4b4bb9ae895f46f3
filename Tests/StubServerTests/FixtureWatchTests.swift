import Foundation
import Locking
import StubTestSupport
import Synchronization
import TestTurns
import Testing

@testable import StubCore
@testable import StubServer

/// Watch mode: a fixtures folder edited, broken and repaired while a client keeps calling.
@Suite(.takesTurns(.heavy), .timeLimit(.minutes(1)))
struct FixtureWatchTests {
    static func stubs(_ name: String = "a", body: String) -> String {
        #"{"stubs": [{"name": "\#(name)", "request": {"path": "/\#(name)"}, "variants": {"good": {"body": "\#(body)"}, "bad": {"body": "{"}, "nil": {"body": ""}}}]}"#
    }

    @Test func editsAreServed_aBrokenEditKeepsTheLastGoodCatalog_andARepairComesBack() async throws {
        let fixtures = try TemporaryFixtures(["api/stubs.json": Self.stubs(body: "one")])
        defer { fixtures.remove() }
        let reports = Lock<[ReloadReport]>([])
        let configuration = StubServer.Configuration(
            watchFixtures: true, onReload: { report in reports.withLock { $0.append(report) } })
        try await withStubServer(fixtures: fixtures.root, configuration: configuration) { server in
            let calling = Atomic<Bool>(true)
            let caller = Task { () -> [String] in
                var seen: [String] = []
                while calling.load(ordering: .relaxed) {
                    let answer = try await exchange(server, get("/a"))
                    seen.append(answer.status == 200 ? answer.text : "status \(answer.status)")
                }
                return seen
            }
            try fixtures.write("api/stubs.json", Self.stubs(body: "two"))
            try await waitUntil("the edit to be served") { try await exchange(server, get("/a")).text == "two" }

            try fixtures.write("api/stubs.json", #"{"stubs": [ broken"#)
            try await waitUntil("the broken edit to be reported") { server.lastReload?.succeeded == false }
            let broken = try #require(server.lastReload)
            #expect(broken.changed == ["api/stubs.json"])
            #expect(broken.problems.map(\.file) == ["api/stubs.json"])
            #expect(broken.line.hasPrefix("reload failed (api/stubs.json changed): 1 problem; still serving"))
            #expect(try await exchange(server, get("/a")).text == "two", "the last good catalog stays in service")

            try fixtures.write("api/stubs.json", Self.stubs(body: "three"))
            try await waitUntil("the repair to be served") { try await exchange(server, get("/a")).text == "three" }
            #expect(server.lastReload?.succeeded == true)
            #expect(server.lastReload?.line == "reloaded (api/stubs.json changed): serving 1 stubs")

            calling.store(false, ordering: .relaxed)
            let seen = try await caller.value
            #expect(!seen.isEmpty)
            #expect(seen.allSatisfy { ["one", "two", "three"].contains($0) }, "every call was answered: \(Set(seen))")
            let outcomes = reports.withLock { $0.map(\.succeeded) }
            #expect(outcomes.contains(false) && outcomes.last == true, "\(outcomes)")
        }
    }

    @Test func aNewAPIFolder_isWatchedAndServed() async throws {
        let fixtures = try TemporaryFixtures(["api/stubs.json": Self.stubs(body: "one")])
        defer { fixtures.remove() }
        try await withStubServer(fixtures: fixtures.root, configuration: .init(watchFixtures: true)) { server in
            try fixtures.write("more/stubs.json", Self.stubs("b", body: "new"))
            try await waitUntil("the new folder's stub to be served") {
                try await exchange(server, get("/b")).text == "new"
            }
            try fixtures.write("more/stubs.json", Self.stubs("b", body: "newer"))
            try await waitUntil("an edit in the new folder to be served") {
                try await exchange(server, get("/b")).text == "newer"
            }
            #expect(server.catalog.stubs.map(\.name) == ["a", "b"])
        }
    }

    @Test func watchingACatalogBuiltInCode_isRefused() throws {
        let catalog = try StubCatalog(stubs: [
            Stub(
                name: "a", request: RequestPattern(path: PathPattern("/a")),
                variants: ["good": StubVariant(), "bad": StubVariant(), "nil": StubVariant()])
        ])
        #expect(throws: StubServerError.notReloadable) {
            _ = try StubServer.start(catalog: catalog, configuration: .init(watchFixtures: true))
        }
    }

    @Test func launchEnvironment_carriesTheBaseURL() async throws {
        try await withServer(stubs: Self.stubs(body: "x")) { server in
            #expect(server.launchEnvironment() == ["STUB_SERVER_URL": server.baseURL.absoluteString])
            #expect(server.launchEnvironment(key: "API_BASE_URL").values.first?.hasPrefix("http://127.0.0.1:") == true)
        }
    }
}

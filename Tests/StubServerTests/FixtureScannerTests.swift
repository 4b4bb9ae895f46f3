import Foundation
import Locking
import StubTestSupport
import TestTurns
import Testing

@testable import StubCore
@testable import StubServer

/// The portable change source, the only one on Apple platforms: a walk compared with the walk before.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct FixtureScannerTests {
    @Test func aWalk_seesEditsAdditionsRemovalsAndReplacements_butNotHiddenFiles() throws {
        let fixtures = try TemporaryFixtures(["api/stubs.json": "{}", "api/a.json": "1"])
        defer { fixtures.remove() }
        let root = fixtures.root.path
        var scanner = FixtureScanner(root: root)
        #expect(scanner.drain() == [], "nothing changed")

        try fixtures.write("api/a.json", "12")
        #expect(scanner.drain() == ["api/a.json"])
        try fixtures.write("api/b.json", "2")
        try fixtures.write("other/stubs.json", "{}")
        #expect(scanner.drain() == ["api/b.json", "other/stubs.json"])
        try FileManager.default.removeItem(atPath: root + "/api/b.json")
        #expect(scanner.drain() == ["api/b.json"])

        // Replaced by a rename with the same size and, on a coarse clock, the same time: a new file number.
        try Data("34".utf8).write(to: fixtures.root.appendingPathComponent("api/a.json"), options: .atomic)
        #expect(scanner.drain() == ["api/a.json"])

        try fixtures.write("api/.a.json.swp", "x")
        try fixtures.write(".git/config", "x")
        #expect(scanner.drain() == [], "hidden files and folders are not fixtures")
    }

    @Test func theWatcher_walkingTheFolder_reportsABurstOnceItSettles() async throws {
        let fixtures = try TemporaryFixtures(["api/stubs.json": "{}"])
        defer { fixtures.remove() }
        let reports = Lock<[[String]]>([])
        let watcher = try FixtureWatcher(
            root: fixtures.root, debounce: .milliseconds(500), scanInterval: .milliseconds(20)
        ) { changed in reports.withLock { $0.append(changed) } }
        defer { watcher.stop() }
        try fixtures.write("api/stubs.json", #"{"stubs": []}"#)
        try fixtures.write("api/a.json", "1")
        try await waitUntil("the burst to be reported") { !reports.withLock { $0 }.isEmpty }
        #expect(reports.withLock { $0 }.map { $0.sorted() } == [["api/a.json", "api/stubs.json"]])

        try fixtures.write("api/~backup~", "x")
        try fixtures.write("api/a.json", "22")
        try await waitUntil("the edit to be reported") { reports.withLock { $0 }.count == 2 }
        #expect(reports.withLock { $0 }.last == ["api/a.json"], "names ending in ~ are ignored")
    }
}

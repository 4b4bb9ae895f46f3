import Foundation
import StubServer

/// A fixtures folder written to a fresh temporary directory for one test.
struct TemporaryFixtures {
    let root: URL

    /// Writes `files` (path relative to the root, contents) into a new folder.
    init(_ files: [String: String]) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("stub-tests-\(UUID().uuidString)")
        for (path, contents) in files {
            try write(path, contents)
        }
    }

    func write(_ path: String, _ contents: String) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: url)
    }

    func remove() {
        try? FileManager.default.removeItem(at: root)
    }

    /// The problems `StubCatalog.load` reports for this folder, as strings; empty when it loads.
    func problems() -> [String] { loaded().problems }

    /// The catalog this folder loads into, or nil and the problems `StubCatalog.load` reports, as strings.
    func loaded() -> (catalog: StubCatalog?, problems: [String]) {
        do {
            return (try StubCatalog.load(from: root), [])
        } catch {
            return (nil, error.problems.map(\.description))
        }
    }

    /// Writes `files` into a new folder, loads it (`loaded()`), and removes it.
    static func load(_ files: [String: String]) throws -> (catalog: StubCatalog?, problems: [String]) {
        let fixtures = try TemporaryFixtures(files)
        defer { fixtures.remove() }
        return fixtures.loaded()
    }
}

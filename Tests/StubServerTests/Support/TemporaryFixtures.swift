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
    func problems() -> [String] {
        do {
            _ = try StubCatalog.load(from: root)
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }
}

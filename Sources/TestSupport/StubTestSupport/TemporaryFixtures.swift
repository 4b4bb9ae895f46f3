package import Foundation
package import StubCore

/// A fixtures folder written to a fresh temporary directory for one test: the one way tests make temporary
/// folders, so none of them waits for the disk (see `write`).
package struct TemporaryFixtures: Sendable {
    package let root: URL

    /// Writes `files` (path relative to the root, contents) into a new folder; `[:]` makes an empty one.
    package init(_ files: [String: String] = [:]) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("stub-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for (path, contents) in files {
            try write(path, contents)
        }
    }

    /// The URL of `path` under the root (which need not exist).
    package func url(_ path: String) -> URL { root.appendingPathComponent(path) }

    /// Writes one file, replacing it if it exists. Not with `Data.write`, which on Linux waits for the disk
    /// (`fsync`) and so held a thread of the cooperative pool for as long as the disk took: these files are
    /// temporary, and the page cache serves every reader.
    package func write(_ path: String, _ contents: String) throws {
        try write(path, Array(contents.utf8))
    }

    /// Writes one file of bytes, replacing it if it exists.
    package func write(_ path: String, _ bytes: [UInt8]) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path]) }
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path]) }
            offset += count
        }
    }

    /// Removes the folder and everything in it.
    package func remove() {
        try? FileManager.default.removeItem(at: root)
    }

    /// The problems `StubCatalog.load` reports for this folder, as strings; empty when it loads.
    package func problems() -> [String] { loaded().problems }

    /// The catalog this folder loads into, or nil and the problems `StubCatalog.load` reports, as strings.
    package func loaded() -> (catalog: StubCatalog?, problems: [String]) {
        do {
            return (try StubCatalog.load(from: root), [])
        } catch {
            return (nil, error.problems.map(\.description))
        }
    }

    /// Writes `files` into a new folder, loads it (`loaded()`), and removes it.
    package static func load(_ files: [String: String]) throws -> (catalog: StubCatalog?, problems: [String]) {
        let fixtures = try TemporaryFixtures(files)
        defer { fixtures.remove() }
        return fixtures.loaded()
    }
}

import StubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The portable way to see a fixtures folder change: a walk that reads every file's modification time, size and
/// file number, compared with the walk before. The watcher's source on Apple platforms (no kernel notification
/// API is shared with Linux), and compiled and tested on Linux too, where inotify is the default.
///
/// A walk of `MockData/` (about 40 files) reads a few kilobytes of metadata; every 250 ms that is no measurable
/// CPU. A file replaced by a rename gets a new file number, so an edit that keeps size and time is still seen.
struct FixtureScanner {
    private let root: String
    private var files: [String: Stamp]

    /// What a walk reads of one file.
    struct Stamp: Equatable {
        var modified: Date?
        var size: Int?
        var fileNumber: Int?
    }

    init(root: String) {
        self.root = root
        files = Self.walk(root)
    }

    /// The files (relative to the root) added, removed or changed since the last call, sorted.
    mutating func drain() -> [String] {
        let now = Self.walk(root)
        let changed = Set(now.keys).union(files.keys).filter { now[$0] != files[$0] }
        files = now
        return changed.sorted()
    }

    /// Every file under `root` that is not a folder, not hidden and not inside a hidden folder, with its stamp.
    static func walk(_ root: String) -> [String: Stamp] {
        var files: [String: Stamp] = [:]
        for path in (try? FileManager.default.subpathsOfDirectory(atPath: root)) ?? [] {
            let full = root + "/" + path
            guard !path.split(separator: "/").contains(where: { $0.hasPrefix(".") }),
                !FileManager.default.isFolder(atPath: full),
                let attributes = try? FileManager.default.attributesOfItem(atPath: full)
            else { continue }
            files[path] = Stamp(
                modified: attributes[.modificationDate] as? Date, size: integer(attributes[.size]),
                fileNumber: integer(attributes[.systemFileNumber]))
        }
        return files
    }

    /// An attribute's number, whichever integer type the platform's Foundation gives it as.
    private static func integer(_ value: Any?) -> Int? {
        if let value = value as? Int { return value }
        if let value = value as? UInt64 { return Int(truncatingIfNeeded: value) }
        if let value = value as? Int64 { return Int(truncatingIfNeeded: value) }
        if let value = value as? UInt { return Int(truncatingIfNeeded: value) }
        return nil
    }
}

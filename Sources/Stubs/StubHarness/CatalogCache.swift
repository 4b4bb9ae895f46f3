package import Foundation
import Locking
package import StubCore

/// The catalogs the traits and starters load, kept for the test process while their folders stay as they were.
///
/// A trait starts a fresh server for every test, and most tests of a suite name the same folder: loading it for
/// each of them (tens of milliseconds in a debug build) kept the cooperative pool busy at the start of a parallel
/// run, when every test starts at once. A catalog is an immutable value, so each server made from it still holds
/// its own state. A folder is reloaded when any file in it was added, removed, resized or modified since.
package enum CatalogCache {
    private struct Entry {
        var fingerprint: [String]
        var catalog: StubCatalog
    }

    private static let entries = Lock<[String: Entry]>([:])

    /// The catalog of `folder`: the one loaded before when the folder is unchanged, else a new load.
    /// - Throws: `CatalogError` for invalid fixtures (never kept: the next test loads the folder again).
    package static func catalog(of folder: URL) throws -> StubCatalog {
        let key = folder.standardizedFileURL.path
        let fingerprint = fingerprint(of: folder)
        if let entry = entries.withLock({ $0[key] }), entry.fingerprint == fingerprint { return entry.catalog }
        let catalog = try StubCatalog.load(from: folder)
        entries.withLock { $0[key] = Entry(fingerprint: fingerprint, catalog: catalog) }
        return catalog
    }

    /// Each file under `folder` with its size and modification time (seconds, as a `Double`), in a stable order.
    package static func fingerprint(of folder: URL) -> [String] {
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey, .isRegularFileKey]
        guard let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: keys) else {
            return []
        }
        return files.compactMap { item -> String? in
            guard let url = item as? URL, let values = try? url.resourceValues(forKeys: Set(keys)),
                values.isRegularFile == true
            else { return nil }
            let modified = values.contentModificationDate?.timeIntervalSinceReferenceDate ?? 0
            return "\(url.path) \(values.fileSize ?? -1) \(modified)"
        }.sorted()
    }
}

import Foundation

/// Images on disk, one file per URL with a stable name, written atomically; it outlives the process.
struct DiskImageStore: Sendable {
    let directory: URL

    /// The file for `url`: a 64-bit FNV-1a hash of the URL, so the name is the same in every process.
    func fileURL(for url: URL) -> URL {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in url.absoluteString.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let name = String(hash, radix: 16)
        return directory.appendingPathComponent(String(repeating: "0", count: 16 - name.count) + name + ".image")
    }

    func read(_ url: URL) -> Data? {
        FileManager.default.contents(atPath: fileURL(for: url).path)
    }

    /// Writes atomically; a failure only costs the disk copy, never the load.
    func write(_ data: Data, for url: URL) {
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try? data.write(to: fileURL(for: url), options: .atomic)
    }

    func removeAll() {
        try? FileManager.default.removeItem(at: directory)
    }
}

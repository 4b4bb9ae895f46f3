import Locking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

#if canImport(FoundationEssentials)
    package import FoundationEssentials
#else
    package import Foundation
#endif

/// Appends coverage records to a file of its own in a coverage folder: `served-PID-N.jsonl`, one JSON line per
/// answer, each written with one `write(2)` to a file opened for appending, so the servers of one process share it
/// and the processes of a run (parallel test processes, exit tests, sweep children, an app) never write the same
/// file. What the folder holds, `stub-server coverage` reads.
package final class CoverageSink: Sendable {
    /// The run-wide coverage folder, when set: every server of every process the run starts records there.
    package static let environmentKey = "STUB_COVERAGE_DIR"

    /// The file's descriptor; -1 when it could not be opened (recording is then skipped: a report is never worth
    /// failing the server over).
    private let descriptor: Int32
    /// Where the lines go.
    package let file: URL

    private init(folder: URL) {
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let number = Self.opened.withLock { count in
            count += 1
            return count
        }
        file = folder.appendingPathComponent("served-\(getpid())-\(number)-\(UInt32.random(in: 0...UInt32.max)).jsonl")
        descriptor = open(file.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    private static let opened = Lock(0)
    private static let sinks = Lock<[String: CoverageSink]>([:])

    /// The sink of `folder` for this process, or of `STUB_COVERAGE_DIR` when `folder` is nil; nil when neither
    /// names one.
    package static func sink(folder: URL?) -> CoverageSink? {
        guard
            let folder = folder
                ?? ProcessInfo.processInfo.environment[environmentKey].flatMap({
                    $0.isEmpty ? nil : URL(fileURLWithPath: $0)
                })
        else { return nil }
        let key = folder.standardizedFileURL.path
        return sinks.withLock { sinks in
            if let sink = sinks[key] { return sink }
            let sink = CoverageSink(folder: folder)
            sinks[key] = sink
            return sink
        }
    }

    /// Appends `record` as one line.
    package func append(_ record: CoverageRecord) {
        guard descriptor >= 0, var line = try? Self.encoder.encode(record) else { return }
        line.append(UInt8(ascii: "\n"))
        line.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}

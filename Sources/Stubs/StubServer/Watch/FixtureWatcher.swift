import HTTPEngine
import StubCore
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Watches a fixtures folder and reports which files changed, once the writes have settled.
///
/// On Linux through inotify, one watch per folder (new folders are watched as they appear): a thread of its own
/// sleeps in `poll()` until the kernel reports a change, with no CPU while nothing changes. Elsewhere, and on
/// Linux when asked (`scanInterval`), by a `FixtureScanner` walk every 250 ms: one portable path, compiled and
/// tested here, instead of an Apple-only kernel API. Hidden files (editors' swap files) and names ending in `~`
/// are ignored.
final class FixtureWatcher: Sendable {
    private let root: URL
    private let stopPipe: (read: Int32, write: Int32)
    private let stopped = Atomic<Bool>(false)

    /// How often the portable source walks the folder where there is no inotify.
    static let defaultScanInterval = Duration.milliseconds(250)

    /// Starts watching `root`; `onChange` gets the changed paths (relative to `root`) `debounce` after the last
    /// change of a burst, on the watcher's thread.
    /// - Parameter scanInterval: walk the folder this often instead of asking the kernel (Linux's default is
    ///   inotify; elsewhere the walk is the only source, every `defaultScanInterval` when nil).
    init(
        root: URL, debounce: Duration = .milliseconds(150), scanInterval: Duration? = nil,
        onChange: @escaping @Sendable ([String]) -> Void
    ) throws {
        self.root = root.standardizedFileURL.resolvingSymlinksInPath()
        var kernel: Source?
        #if canImport(Glibc)
            if scanInterval == nil { kernel = .inotify(try InotifySource(root: self.root)) }
        #endif
        // The walk's first pass reads the whole tree: made only when the walk is the source.
        let source =
            kernel
            ?? .scanner(
                FixtureScanner(root: self.root.path), every: Self.milliseconds(scanInterval ?? Self.defaultScanInterval)
            )
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            source.close()
            throw StubServerError.watchFailed("cannot create a pipe: errno \(errno)")
        }
        stopPipe = (fds[0], fds[1])
        let (stopRead, milliseconds, chosen) = (stopPipe.read, Self.milliseconds(debounce), source)
        LoopThread.start {
            Self.run(chosen, stopFD: stopRead, debounceMs: milliseconds, onChange: onChange)
            close(stopRead)
        }
    }

    deinit {
        stop()
    }

    /// Ends the watch; the thread closes its descriptors and exits. Calling it twice does nothing.
    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var byte: UInt8 = 1
        _ = write(stopPipe.write, &byte, 1)
        close(stopPipe.write)
    }

    /// Where changes come from.
    private enum Source {
        #if canImport(Glibc)
            case inotify(InotifySource)
        #endif
        case scanner(FixtureScanner, every: Int32)

        func close() {
            #if canImport(Glibc)
                if case .inotify(let source) = self { source.close() }
            #endif
        }
    }

    private static func run(
        _ source: Source, stopFD: Int32, debounceMs: Int32, onChange: @Sendable ([String]) -> Void
    ) {
        var source = source
        var pending: [String] = []
        var deadline: Double?
        var nextScan: Double?
        if case .scanner(_, let every) = source { nextScan = now() + Double(every) / 1000 }
        while true {
            let wake = [deadline, nextScan].compactMap { $0 }.min()
            let timeout = wake.map { Int32(max(0, ($0 - now()) * 1000).rounded(.up)) } ?? -1
            var fds = [pollfd(fd: stopFD, events: Int16(POLLIN), revents: 0)]
            #if canImport(Glibc)
                if case .inotify(let inotify) = source {
                    fds.append(pollfd(fd: inotify.fd, events: Int16(POLLIN), revents: 0))
                }
            #endif
            let ready = poll(&fds, nfds_t(fds.count), timeout)
            if ready < 0 && errno != EINTR { break }
            if fds[0].revents != 0 { break }
            var changed: [String] = []
            switch source {
            #if canImport(Glibc)
                case .inotify(var inotify):
                    if fds[1].revents & Int16(POLLIN) != 0 {
                        changed = inotify.drain()
                        source = .inotify(inotify)
                    }
            #endif
            case .scanner(var scanner, let every):
                if let due = nextScan, now() >= due {
                    changed = scanner.drain()
                    source = .scanner(scanner, every: every)
                    nextScan = now() + Double(every) / 1000
                }
            }
            changed = changed.filter { path in
                let name = path.split(separator: "/").last ?? ""
                return !name.hasPrefix(".") && !name.hasSuffix("~")
            }
            if !changed.isEmpty {
                for path in changed where !pending.contains(path) { pending.append(path) }
                deadline = now() + Double(debounceMs) / 1000
            }
            if let due = deadline, now() >= due {
                onChange(pending)
                pending = []
                deadline = nil
            }
        }
        source.close()
    }

    private static func milliseconds(_ duration: Duration) -> Int32 {
        Int32(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }

    private static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}

#if canImport(Glibc)
    /// inotify: one watch per folder, events named by folder and file.
    private struct InotifySource {
        let fd: Int32
        private let root: String
        /// Folder (relative to the root, "" for the root) of each watch descriptor.
        private var folders: [Int32: String] = [:]
        private static let mask = UInt32(
            IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_DELETE_SELF | IN_ATTRIB)

        init(root: URL) throws {
            self.root = root.path
            fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            guard fd >= 0 else { throw StubServerError.watchFailed("inotify is not available: errno \(errno)") }
            try watchTree("")
        }

        private mutating func watchTree(_ folder: String) throws {
            let path = folder.isEmpty ? root : root + "/" + folder
            let descriptor = inotify_add_watch(fd, path, Self.mask)
            guard descriptor >= 0 else {
                throw StubServerError.watchFailed("cannot watch \(path): errno \(errno)")
            }
            folders[descriptor] = folder
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            for name in entries where !name.hasPrefix(".") {
                if FileManager.default.isFolder(atPath: path + "/" + name) {
                    try? watchTree(folder.isEmpty ? name : folder + "/" + name)
                }
            }
        }

        /// The paths the pending events name; new folders are watched from now on.
        mutating func drain() -> [String] {
            var changed: [String] = []
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                var offset = 0
                let header = MemoryLayout<inotify_event>.size
                while offset + header <= count {
                    let (descriptor, mask, length) = buffer.withUnsafeBytes { bytes in
                        (
                            bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self),
                            bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
                            Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                        )
                    }
                    let nameBytes = buffer[(offset + header)..<min(offset + header + length, count)].prefix { $0 != 0 }
                    let name = String(decoding: nameBytes, as: UTF8.self)
                    offset += header + length
                    if mask & UInt32(IN_IGNORED) != 0 {
                        folders[descriptor] = nil
                        continue
                    }
                    guard let folder = folders[descriptor] else { continue }
                    let path = name.isEmpty ? folder : (folder.isEmpty ? name : folder + "/" + name)
                    if mask & UInt32(IN_ISDIR) != 0, mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
                        try? watchTree(path)
                    }
                    changed.append(path)
                }
            }
            return changed
        }

        func close() {
            _ = Glibc.close(fd)
        }
    }
#endif

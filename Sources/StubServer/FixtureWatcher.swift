import HTTPEngine
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
/// On Linux through inotify, one watch per folder (new folders are watched as they appear); on Apple platforms
/// through a kqueue vnode source per folder and per file, rebuilt after each change. A thread of its own sleeps
/// in `poll()` until the kernel reports a change: no polling of the disk, no CPU while nothing changes. Hidden
/// files (editors' swap files) and names ending in `~` are ignored.
final class FixtureWatcher: Sendable {
    private let root: URL
    private let stopPipe: (read: Int32, write: Int32)
    private let stopped = Atomic<Bool>(false)

    /// Starts watching `root`; `onChange` gets the changed paths (relative to `root`) `debounce` after the last
    /// change of a burst, on the watcher's thread.
    init(root: URL, debounce: Duration = .milliseconds(150), onChange: @escaping @Sendable ([String]) -> Void) throws {
        self.root = root.standardizedFileURL.resolvingSymlinksInPath()
        let source = try ChangeSource(root: self.root)
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            source.close()
            throw StubServerError.watchFailed("cannot create a pipe: errno \(errno)")
        }
        stopPipe = (fds[0], fds[1])
        let (stopRead, rootPath) = (stopPipe.read, self.root.path)
        let milliseconds = Int32(
            debounce.components.seconds * 1000 + debounce.components.attoseconds / 1_000_000_000_000_000)
        LoopThread.start {
            Self.run(source, stopFD: stopRead, root: rootPath, debounceMs: milliseconds, onChange: onChange)
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

    private static func run(
        _ source: ChangeSource, stopFD: Int32, root: String, debounceMs: Int32,
        onChange: @Sendable ([String]) -> Void
    ) {
        var source = source
        var pending: [String] = []
        var deadline: Double?
        while true {
            let timeout = deadline.map { Int32(max(0, ($0 - now()) * 1000).rounded(.up)) } ?? -1
            var fds = [
                pollfd(fd: source.fd, events: Int16(POLLIN), revents: 0),
                pollfd(fd: stopFD, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&fds, 2, timeout)
            if ready < 0 && errno != EINTR { break }
            if fds[1].revents != 0 { break }
            if fds[0].revents & Int16(POLLIN) != 0 {
                let changed = source.drain().filter { path in
                    let name = path.split(separator: "/").last ?? ""
                    return !name.hasPrefix(".") && !name.hasSuffix("~")
                }
                if !changed.isEmpty {
                    for path in changed where !pending.contains(path) { pending.append(path) }
                    deadline = now() + Double(debounceMs) / 1000
                }
            }
            if let due = deadline, now() >= due {
                onChange(pending)
                pending = []
                deadline = nil
            }
        }
        source.close()
    }

    private static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}

#if canImport(Glibc)
    /// inotify: one watch per folder, events named by folder and file.
    private struct ChangeSource {
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
#elseif canImport(Darwin)
    /// kqueue: a vnode watch on every folder and file, rebuilt after each change (written for Apple platforms;
    /// not compiled on the Linux machines this package is developed on).
    private struct ChangeSource {
        let fd: Int32
        private let root: String
        private var watched: [Int32: String] = [:]

        init(root: URL) throws {
            self.root = root.path
            fd = kqueue()
            guard fd >= 0 else { throw StubServerError.watchFailed("kqueue failed: errno \(errno)") }
            rebuild()
        }

        private mutating func rebuild() {
            for descriptor in watched.keys { _ = Darwin.close(descriptor) }
            watched = [:]
            var paths = [""]
            if let enumerator = FileManager.default.enumerator(atPath: root) {
                while let path = enumerator.nextObject() as? String { paths.append(path) }
            }
            for path in paths {
                let descriptor = open(path.isEmpty ? root : root + "/" + path, O_EVTONLY)
                guard descriptor >= 0 else { continue }
                watched[descriptor] = path
                var change = kevent(
                    ident: UInt(descriptor), filter: Int16(EVFILT_VNODE), flags: UInt16(EV_ADD | EV_CLEAR),
                    fflags: UInt32(NOTE_WRITE | NOTE_DELETE | NOTE_RENAME | NOTE_EXTEND | NOTE_ATTRIB), data: 0,
                    udata: nil)
                _ = kevent(fd, &change, 1, nil, 0, nil)
            }
        }

        mutating func drain() -> [String] {
            var changed: [String] = []
            var events = [kevent](repeating: kevent(), count: 64)
            var zero = timespec()
            let count = kevent(fd, nil, 0, &events, Int32(events.count), &zero)
            for event in events.prefix(Int(max(0, count))) {
                if let path = watched[Int32(event.ident)] { changed.append(path) }
            }
            if !changed.isEmpty { rebuild() }
            return changed
        }

        func close() {
            for descriptor in watched.keys { _ = Darwin.close(descriptor) }
            _ = Darwin.close(fd)
        }
    }
#endif

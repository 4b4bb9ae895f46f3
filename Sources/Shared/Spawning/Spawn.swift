// Programs started where a process can start another: macOS and Linux.
#if os(macOS) || os(Linux)
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    #if os(Linux)
        import CLinux
    #endif

    /// Starts programs with `posix_spawn`, lending them nothing of this process but the descriptors named: what
    /// the tests' `ChildProcess` and `stub-server sweep` share. No Foundation, so the `stub-server` binary stays
    /// without it. Darwin declares `posix_spawnp` and `posix_spawnattr_setpgroup` as it does `posix_spawn` and
    /// `posix_spawnattr_setflags` (xnu libsyscall/wrappers/spawn/spawn.h), and `POSIX_SPAWN_SETPGROUP` as a plain
    /// constant beside `POSIX_SPAWN_SETSIGDEF` and `POSIX_SPAWN_SETSIGMASK` (xnu bsd/sys/spawn.h:46, `0x0002`).
    package enum Spawn {
        /// Where one of the child's standard outputs goes.
        package enum Destination: Sendable, Equatable {
            /// A copy of this descriptor (a pipe's write end, a file).
            case descriptor(Int32)
            /// `/dev/null`.
            case discard
        }

        /// The child could not be started; the description names the program and the call that failed.
        package struct Failure: Error, CustomStringConvertible {
            package let description: String

            package init(description: String) { self.description = description }
        }

        /// Starts `executable` (found in `PATH` when it has no slash and `searchPath` is set) with `arguments`,
        /// `environment` and, when given, `directory`; standard input is `/dev/null` unless `stdin` names a descriptor
        /// (a pipe's read end). Every other descriptor is
        /// closed in the child; its signal mask is empty and SIGHUP, SIGINT, SIGQUIT, SIGPIPE and SIGTERM have their
        /// default actions (a test runner's thread may block or ignore them). With `newProcessGroup` the child
        /// leads a process group of its own, which `kill(-pid, signal)` reaches whole.
        /// - Returns: the child's process ID.
        package static func start(
            _ executable: String, arguments: [String], environment: [String: String], directory: String? = nil,
            stdin: Destination = .discard, stdout: Destination, stderr: Destination, searchPath: Bool = false,
            newProcessGroup: Bool = false
        ) throws(Failure) -> Int32 {
            func failure(_ call: String, _ code: Int32) -> Failure {
                Failure(description: "\(executable): \(call): \(String(cString: strerror(code)))")
            }
            let (actions, actionsMade) = spawnObject(posix_spawn_file_actions_init)
            let (attributes, attributesMade) = spawnObject(posix_spawnattr_init)
            defer {
                if actionsMade == 0 { posix_spawn_file_actions_destroy(actions) }
                if attributesMade == 0 { posix_spawnattr_destroy(attributes) }
                actions.deallocate()
                attributes.deallocate()
            }
            guard actionsMade == 0 else { throw failure("file actions", actionsMade) }
            guard attributesMade == 0 else { throw failure("attributes", attributesMade) }

            var code =
                switch stdin {
                case .descriptor(let source): posix_spawn_file_actions_adddup2(actions, source, 0)
                case .discard: posix_spawn_file_actions_addopen(actions, 0, "/dev/null", O_RDONLY, 0)
                }
            for (fd, destination) in [(Int32(1), stdout), (2, stderr)] where code == 0 {
                code =
                    switch destination {
                    case .descriptor(let source): posix_spawn_file_actions_adddup2(actions, source, fd)
                    case .discard: posix_spawn_file_actions_addopen(actions, fd, "/dev/null", O_WRONLY, 0)
                    }
            }
            if code == 0, let directory { code = posix_spawn_file_actions_addchdir_np(actions, directory) }
            #if os(Linux)
                if code == 0 { code = posix_spawn_file_actions_addclosefrom_np(actions, 3) }
            #endif
            guard code == 0 else { throw failure("file actions", code) }

            var signals = sigset_t()
            sigemptyset(&signals)
            code = posix_spawnattr_setsigmask(attributes, &signals)
            for number in [SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGTERM] { sigaddset(&signals, number) }
            if code == 0 { code = posix_spawnattr_setsigdefault(attributes, &signals) }
            if code == 0, newProcessGroup { code = posix_spawnattr_setpgroup(attributes, 0) }
            if code == 0 {
                let group = newProcessGroup ? Int32(POSIX_SPAWN_SETPGROUP) : 0
                code = posix_spawnattr_setflags(
                    attributes, Int16(Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF) | group) | closeOthersFlag)
            }
            guard code == 0 else { throw failure("attributes", code) }

            let argv = ([executable] + arguments).map { strdup($0) } + [nil]
            let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { for string in argv + envp { free(string) } }
            var pid: pid_t = 0
            code =
                searchPath
                ? posix_spawnp(&pid, executable, actions, attributes, argv, envp)
                : posix_spawn(&pid, executable, actions, attributes, argv, envp)
            guard code == 0 else { throw failure(searchPath ? "posix_spawnp" : "posix_spawn", code) }
            return pid
        }
    }

    extension Spawn {
        /// Whether `pid`, a child of this process, has ended, without reaping it (`waitid` with `WNOWAIT`): until
        /// it is reaped its number, and so its process group's, cannot be reused. Never blocks. The structure is
        /// zeroed first and `si_signo` read, a field (not a macro) in glibc's and Darwin's `siginfo_t` alike (xnu
        /// bsd/sys/signal.h: `typedef struct __siginfo { int si_signo; ...`): it is `SIGCHLD` only when a child was
        /// reported.
        package static func hasEnded(_ pid: Int32) -> Bool {
            var info = siginfo_t()
            var result = waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT)
            while result != 0 && errno == EINTR {
                result = waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT)
            }
            // An error (ECHILD: reaped elsewhere) counts as ended: there is nothing left to wait for.
            return result != 0 || info.si_signo == SIGCHLD
        }

        /// Kills the process group `pid` leads (see `start(newProcessGroup:)`), whatever is left of it, then reaps
        /// `pid`; its termination (`signalled(SIGKILL)` when it still ran, `exited(-1)` when reaped elsewhere).
        @discardableResult
        package static func endGroup(of pid: Int32) -> Termination {
            _ = kill(-pid, SIGKILL)
            var status: Int32 = 0
            var reaped = waitpid(pid, &status, 0)
            while reaped < 0 && errno == EINTR { reaped = waitpid(pid, &status, 0) }
            return reaped == pid ? Termination(waitStatus: status) : .exited(-1)
        }

        /// Sends SIGKILL to the process group `pid` leads, without reaping anything.
        package static func killGroup(of pid: Int32) {
            _ = kill(-pid, SIGKILL)
        }

        /// A file without a name (made by `mkstemp` in `TMPDIR`, then unlinked) that a child's output goes to.
        package final class OutputFile {
            package let descriptor: Int32

            package init() throws(Failure) {
                let folder = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
                var template = Array("\(folder)/spawn-output-XXXXXX".utf8CString)
                descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
                guard descriptor >= 0 else {
                    throw Failure(description: "mkstemp in \(folder): \(String(cString: strerror(errno)))")
                }
                _ = template.withUnsafeBufferPointer { unlink($0.baseAddress!) }
            }

            deinit { close(descriptor) }

            /// The last `count` lines written, read from at most the last 8 KB.
            package func lastLines(_ count: Int) -> [String] {
                let size = lseek(descriptor, 0, SEEK_END)
                guard size > 0 else { return [] }
                let start = max(0, size - 8_192)
                var bytes = [UInt8](repeating: 0, count: Int(size - start))
                let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, start) }
                var lines = String(decoding: bytes.prefix(max(0, read)), as: UTF8.self).split(
                    separator: "\n", omittingEmptySubsequences: false
                ).map(String.init)
                if start > 0, !lines.isEmpty { lines.removeFirst() }
                if lines.last == "" { lines.removeLast() }
                return Array(lines.suffix(count))
            }
        }
    }

    /// How a child ended (`exited(-1)`: its status was lost, reaped by another part of this process).
    package enum Termination: Sendable, Equatable, CustomStringConvertible {
        case exited(Int32)
        case signalled(Int32)

        /// As Foundation's `terminationStatus`: the exit status, or the number of the signal that ended it.
        package var status: Int32 {
            switch self {
            case .exited(let status), .signalled(let status): status
            }
        }

        package var description: String {
            switch self {
            case .exited(let status): "exit status \(status)"
            case .signalled(let signal): "signal \(signal)"
            }
        }

        /// Decodes a `waitpid` status as glibc's bits/waitstatus.h and xnu bsd/sys/wait.h:136-154 both define it
        /// (`WIFEXITED`: the low 7 bits are 0; `WEXITSTATUS`: bits 8-15; `WTERMSIG`: the low 7 bits), which Swift
        /// does not import (function-like macros).
        package init(waitStatus status: Int32) {
            let low = status & 0x7f
            self = low == 0 ? .exited((status >> 8) & 0xff) : .signalled(low)
        }
    }

    // Darwin's flag for "close every descriptor not named in a file action" (xnu bsd/sys/spawn.h:73,
    // `#define POSIX_SPAWN_CLOEXEC_DEFAULT 0x4000`, a plain constant Swift imports); Linux uses
    // `posix_spawn_file_actions_addclosefrom_np` instead (above).
    #if canImport(Darwin)
        private let closeOthersFlag = Int16(POSIX_SPAWN_CLOEXEC_DEFAULT)
    #else
        private let closeOthersFlag: Int16 = 0
    #endif

    /// A spawn attributes or file actions object, made by `initialize` (its result: 0 or an error number). Its type
    /// is a struct in glibc and `void *` in Darwin (xnu libsyscall/wrappers/spawn/spawn.h:51-52), which Swift sees as
    /// an optional raw pointer; inferred from `initialize`, it lets one code serve both.
    private func spawnObject<T>(_ initialize: (UnsafeMutablePointer<T>) -> Int32) -> (UnsafeMutablePointer<T>, Int32) {
        let object = UnsafeMutablePointer<T>.allocate(capacity: 1)
        return (object, initialize(object))
    }
#endif

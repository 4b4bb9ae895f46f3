// Tests start tools where a process can start another: macOS and Linux.
#if os(macOS) || os(Linux)
    import Foundation
    import Locking
    import SharedTestSupport
    package import Spawning

    #if os(Linux)
        import CLinux
    #endif

    /// A program a test runs, started with `posix_spawn`: its output read to the end on threads of its own, its exit
    /// awaited with a deadline by a suspended task (no thread of the cooperative pool held), and nothing of the test process lent to it but the three descriptors it is given.
    ///
    /// Not Foundation's `Process`: on Linux its `run()` lists `/proc/self/fd` to close every other descriptor in the
    /// child and, in swift-corelibs-foundation before #5472, copies each entry whole, reading past the end of
    /// glibc's directory buffer once a few thousand descriptors fill it. A parallel test run holds that many (each
    /// running test's server has a poller, a waker and its connections), and the read crashed the whole run.
    /// Here the child closes them itself (`posix_spawn_file_actions_addclosefrom_np` on Linux,
    /// `POSIX_SPAWN_CLOEXEC_DEFAULT` on Darwin).
    package final class ChildProcess: Sendable {
        /// Where the child's standard output or error goes.
        package enum Destination: Sendable {
            /// A pipe this process reads to the end (`ChildProcess.stdout`, `.stderr`).
            case capture
            /// `/dev/null`.
            case discard
        }

        /// How the child ended (`exited(-1)`: its status was lost, reaped by another part of this process).
        package typealias Termination = Spawning.Termination

        /// The child could not be started; the description names the program and the call that failed.
        package struct SpawnError: Error, CustomStringConvertible {
            package let description: String
        }

        package let pid: Int32
        /// What the child writes to its standard output, when captured.
        package let stdout: Output?
        /// What the child writes to its standard error, when captured.
        package let stderr: Output?
        private let ending = Exit()
        /// The write end of the child's standard input, when it has one, until `closeInput()`.
        private let input: Lock<Int32?>

        /// How the child ended, set by the thread that waits for it; a box of its own, so that the thread does not
        /// keep the `ChildProcess` (whose end kills a running child) alive.
        private final class Exit: Sendable {
            let termination = Lock<Termination?>(nil)
            let ended = Occurrence()
        }

        /// Starts `executable` with `arguments`, `environment` (this process's when nil) in `directory` (this
        /// process's when nil); standard input is `/dev/null`, or with `input` a pipe the test writes to
        /// (`writeInput(_:)`, `closeInput()`).
        /// - Throws: `SpawnError` when a pipe cannot be made or the program cannot be started.
        package init(
            _ executable: String, arguments: [String] = [], environment: [String: String]? = nil,
            directory: String? = nil, input: Bool = false, stdout: Destination = .capture,
            stderr: Destination = .capture
        ) throws(SpawnError) {
            var made: [Int32] = []
            func pipe() throws(SpawnError) -> (read: Int32, write: Int32) {
                do {
                    let ends = try Self.makePipe()
                    made += [ends.read, ends.write]
                    return ends
                } catch {
                    for end in made { close(end) }
                    throw error
                }
            }
            let inPipe = input ? try pipe() : nil
            let outPipe = stdout == .capture ? try pipe() : nil
            let errPipe = stderr == .capture ? try pipe() : nil
            let spawned = Result { () throws(Spawn.Failure) in
                try Spawn.start(
                    executable, arguments: arguments,
                    environment: environment ?? ProcessInfo.processInfo.environment, directory: directory,
                    stdin: inPipe.map { .descriptor($0.read) } ?? .discard,
                    stdout: outPipe.map { .descriptor($0.write) } ?? .discard,
                    stderr: errPipe.map { .descriptor($0.write) } ?? .discard)
            }
            for end in [inPipe?.read, outPipe?.write, errPipe?.write].compactMap({ $0 }) { close(end) }
            let pid: Int32
            switch spawned {
            case .success(let spawnedPID): pid = spawnedPID
            case .failure(let error):
                for end in [inPipe?.write, outPipe?.read, errPipe?.read].compactMap({ $0 }) { close(end) }
                throw SpawnError(description: error.description)
            }
            self.pid = pid
            self.input = Lock(inPipe?.write)
            if let end = inPipe?.write { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
            self.stdout = outPipe.map { Output(reading: $0.read) }
            self.stderr = errPipe.map { Output(reading: $0.read) }
            let ending = ending
            Thread {
                // Waits without reaping, then reaps under the lock `signal(_:)` takes: a signal can never reach
                // another process that reused the number.
                var info = siginfo_t()
                while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
                ending.termination.withLock { termination in
                    var status: Int32 = 0
                    var reaped = waitpid(pid, &status, 0)
                    while reaped < 0 && errno == EINTR { reaped = waitpid(pid, &status, 0) }
                    termination = reaped == pid ? Termination(waitStatus: status) : .exited(-1)
                }
                ending.ended.happen()
            }
            .start()
        }

        /// A child still running when its owner lets go (a test that failed before stopping it) is killed, not
        /// left behind.
        deinit {
            signal(SIGKILL)
            closeInput()
        }

        /// Writes `text` to the child's standard input (started with `input: true`) without waiting: a pipe holds
        /// 64 KB, far more than a test's commands.
        /// - Throws: `SpawnError` when the child has no input, it is closed, or the pipe is full or broken.
        package func writeInput(_ text: String) throws(SpawnError) {
            try input.withLock { (input: inout Int32?) throws(SpawnError) in
                guard let fd = input else { throw SpawnError(description: "the child's input is not open") }
                let bytes = Array(text.utf8)
                let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                guard written == bytes.count else {
                    throw SpawnError(
                        description: "writing to the child's input: \(written < 0 ? errorText() : "short write")")
                }
            }
        }

        /// Closes the child's standard input: it reads the end of its input.
        package func closeInput() {
            input.withLock { input in
                if let fd = input { close(fd) }
                input = nil
            }
        }

        /// How the child ended; nil while it runs.
        package var termination: Termination? { ending.termination.withLock { $0 } }

        /// Waits at most `seconds` for the child to end; nil if it still runs then (or the task was cancelled). The
        /// task waits suspended, holding no thread.
        package func exit(within seconds: Double) async -> Termination? {
            await ending.ended.wait(within: seconds) ? termination : nil
        }

        /// Sends `signal` to the child unless it has ended.
        package func signal(_ signal: Int32) {
            ending.termination.withLock { termination in
                if termination == nil { send(signal, to: pid) }
            }
        }

        /// Kills the child (SIGKILL) and waits for it to end (a minute at most, which only ends a hang).
        @discardableResult
        package func kill() async -> Termination? {
            signal(SIGKILL)
            return await exit(within: 60)
        }

        /// A pipe whose ends the child does not inherit unless given them (`adddup2` clears close-on-exec on the
        /// copy).
        private static func makePipe() throws(SpawnError) -> (read: Int32, write: Int32) {
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { throw SpawnError(description: "pipe: \(errorText())") }
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            return (ends[0], ends[1])
        }
    }

    private func errorText() -> String { String(cString: strerror(errno)) }

    /// `kill(2)`, which the type's own `kill()` hides inside it.
    private func send(_ signal: Int32, to pid: Int32) { _ = kill(pid, signal) }
#endif

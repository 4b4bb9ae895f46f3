// These tests run the built `stub-server` as a process: compiled only where a test can start one.
#if os(macOS) || os(Linux)
    import Foundation
    import Locking

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// A class of the test bundle, for `Bundle(for:)`.
    private final class BundleMarker {}

    /// Runs the built `stub-server` binary and captures what it prints.
    struct CLIRunner {
        /// The built `stub-server`: `$STUB_SERVER_PATH` when set, else beside the test bundle (`swift test` puts every
        /// product of the package in the folder that holds the bundle).
        static let executable: URL = {
            let environment = ProcessInfo.processInfo.environment
            // On Linux the test bundle is the running executable; on macOS `xctest` or the toolchain's testing helper
            // runs, and the bundle is the image this code was loaded from (`Bundle(for:)`, which finds a bundle
            // loaded with dlopen, as swiftpm-testing-helper loads it; `Bundle.allBundles` may not list it), or
            // a path among the runner's arguments (`--test-bundle-path PATH`).
            let places =
                [Bundle(for: BundleMarker.self).bundleURL]
                + Bundle.allBundles.map(\.bundleURL)
                + [Bundle.main.executableURL, Bundle.main.bundleURL].compactMap { $0 }
                + CommandLine.arguments.filter { $0.hasPrefix("/") }.map { URL(fileURLWithPath: $0) }
                + [URL(fileURLWithPath: CommandLine.arguments[0])]
            return locate(
                "stub-server", override: environment["STUB_SERVER_PATH"], near: places,
                isExecutable: FileManager.default.isExecutableFile(atPath:))
                ?? URL(fileURLWithPath: "stub-server-not-built")
        }()

        /// The built `InProcessProbe` (Linux), found like `executable`.
        static let inProcessProbe: URL =
            locate(
                "InProcessProbe", override: nil, near: [executable],
                isExecutable: FileManager.default.isExecutableFile(atPath:))
            ?? URL(fileURLWithPath: "InProcessProbe-not-built")

        /// Where the tool `name` is: `override` when given and executable, else in the folder of one of `places` (a
        /// test bundle, an executable) or a folder above it, the first such place winning.
        static func locate(
            _ name: String, override: String?, near places: [URL], isExecutable: (String) -> Bool
        ) -> URL? {
            if let override { return isExecutable(override) ? URL(fileURLWithPath: override) : nil }
            for place in places {
                var directory = place.standardizedFileURL.deletingLastPathComponent()
                while directory.path != "/" && !directory.path.isEmpty {
                    let candidate = directory.appendingPathComponent(name)
                    if isExecutable(candidate.path) { return candidate }
                    directory.deleteLastPathComponent()
                }
            }
            return nil
        }

        /// The package root, where `MockData/` lives.
        static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()

        struct Result {
            var status: Int32
            var stdout: String
            var stderr: String
        }

        /// The process's environment with `changes` applied (nil removes a variable).
        static func environment(_ changes: [String: String?]) -> [String: String] {
            var environment = ProcessInfo.processInfo.environment
            for (name, value) in changes { environment[name] = value }
            return environment
        }

        /// Runs `stub-server ARGUMENTS` from the package root to completion, waiting on a thread of its own: a tool
        /// that runs for seconds must not hold one of the cooperative pool's few threads meanwhile.
        /// - Throws: `ChildProcess.TimedOut` when the tool has not exited within `limit` seconds (it is killed).
        static func run(
            _ arguments: [String], environment changes: [String: String?] = [:], limit: Double = 10,
            tool: URL = executable
        ) async throws -> Result {
            try await withCheckedThrowingContinuation { continuation in
                Thread {
                    continuation.resume(
                        with: Swift.Result {
                            try runBlocking(arguments, environment: changes, limit: limit, tool: tool)
                        })
                }
                .start()
            }
        }

        private static func runBlocking(
            _ arguments: [String], environment changes: [String: String?], limit: Double, tool: URL
        ) throws -> Result {
            let process = Process()
            process.executableURL = tool
            process.arguments = arguments
            process.environment = environment(changes)
            process.currentDirectoryURL = packageRoot
            let (out, err) = (Pipe(), Pipe())
            process.standardOutput = out
            process.standardError = err
            let child = try ChildProcess(process)
            let (outReader, errReader) = (ChildProcess.Output(out), ChildProcess.Output(err))
            let exited = child.waitForExit(within: limit)
            let (stdout, stderr) = (outReader.wait(within: 5), errReader.wait(within: 5))
            guard exited, let stdout, let stderr else {
                throw ChildProcess.TimedOut(
                    what: "\(tool.lastPathComponent) \(arguments.joined(separator: " ")) to exit", limit: limit,
                    stdout: stdout ?? outReader.received, stderr: stderr ?? errReader.received)
            }
            return Result(
                status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                stderr: String(decoding: stderr, as: UTF8.self))
        }
    }

    /// A started child process whose exit is awaited with a deadline; `Output` reads a pipe of its to the end on a
    /// thread of its own (so a full pipe never blocks it). Every wait is bounded: a child that hangs fails its test
    /// within seconds, and is killed rather than left behind.
    final class ChildProcess: Sendable {
        /// A child that did not exit (or close its output) in time; it has been killed.
        struct TimedOut: Error, CustomStringConvertible {
            var what: String
            var limit: Double
            var stdout: Data
            var stderr: Data

            var description: String {
                "gave up after \(limit) s waiting for \(what) (killed); stdout: "
                    + "\(String(decoding: stdout, as: UTF8.self).debugDescription), stderr: "
                    + "\(String(decoding: stderr, as: UTF8.self).debugDescription)"
            }
        }

        /// One output pipe, read to its end on a thread of its own.
        final class Output: Sendable {
            private let data = Lock(Data())
            private let ended = DispatchSemaphore(value: 0)

            init(_ pipe: Pipe) {
                let handle = pipe.fileHandleForReading
                Thread { [self] in
                    // read(2), not FileHandle, which throws on EINTR (a signal such as SIGCHLD when another test's
                    // child exits) and would end the stream early.
                    var chunk = [UInt8](repeating: 0, count: 65_536)
                    while true {
                        let count = chunk.withUnsafeMutableBytes {
                            read(handle.fileDescriptor, $0.baseAddress, $0.count)
                        }
                        if count < 0 && errno == EINTR { continue }
                        guard count > 0 else { break }
                        self.data.withLock { $0.append(contentsOf: chunk[..<count]) }
                    }
                    self.ended.signal()
                }
                .start()
            }

            /// What arrived so far.
            var received: Data { data.withLock { $0 } }

            /// Everything, once the stream ended within `seconds`; nil if it is still open then.
            func wait(within seconds: Double) -> Data? {
                guard ended.wait(timeout: .now() + seconds) == .success else { return nil }
                ended.signal()  // later waits return at once
                return received
            }
        }

        let pid: Int32
        private let exited = DispatchSemaphore(value: 0)

        /// Starts `process`, set up but not yet run.
        init(_ process: Process) throws {
            process.terminationHandler = { [exited] _ in exited.signal() }
            try process.run()
            pid = process.processIdentifier
        }

        /// Waits up to `seconds` for the exit; past them, kills the child (SIGKILL) and returns false.
        func waitForExit(within seconds: Double) -> Bool {
            guard exited.wait(timeout: .now() + seconds) == .timedOut else {
                exited.signal()  // later waits return at once
                return true
            }
            killAndWait()
            return false
        }

        /// Kills the child with SIGKILL and waits (at most 5 s) for it to be gone.
        func killAndWait() {
            kill(pid, SIGKILL)
            if exited.wait(timeout: .now() + 5) == .success { exited.signal() }
        }
    }

    /// A running `stub-server serve`, read line by line.
    final class RunningServer {
        let process = Process()
        private let output: FileHandle
        private let child: ChildProcess
        private let errors: ChildProcess.Output
        private var buffer = Data()

        /// - Parameters:
        ///   - softFileLimit: started through `sh` with this soft open-file limit, as a login shell might set.
        ///   - fileLimit: started through `sh` with this soft and hard open-file limit, which `serve` cannot raise.
        init(
            _ arguments: [String], environment changes: [String: String?] = [:], softFileLimit: Int? = nil,
            fileLimit: Int? = nil
        ) throws {
            if let limit = softFileLimit.map({ "-Sn \($0)" }) ?? fileLimit.map({ "-n \($0)" }) {
                process.executableURL = URL(fileURLWithPath: "/bin/sh")
                process.arguments =
                    ["-c", "ulimit \(limit) && exec \"$0\" \"$@\"", CLIRunner.executable.path] + arguments
            } else {
                process.executableURL = CLIRunner.executable
                process.arguments = arguments
            }
            process.environment = CLIRunner.environment(changes)
            process.currentDirectoryURL = CLIRunner.packageRoot
            let (out, err) = (Pipe(), Pipe())
            process.standardOutput = out
            process.standardError = err
            output = out.fileHandleForReading
            child = try ChildProcess(process)
            errors = ChildProcess.Output(err)
        }

        /// A server its test did not stop (it failed first) is killed, not left running.
        deinit {
            if process.isRunning { child.killAndWait() }
        }

        /// The next line on stdout, or nil once the process closed it or printed nothing for `timeout` seconds: a
        /// tool that stops talking fails its test instead of hanging the run. Looks every few milliseconds and
        /// sleeps between looks: a blocking wait would hold one of the cooperative pool's few threads (two on a
        /// 2-CPU machine) for as long as the tool takes, and stall every other test meanwhile.
        func nextLine(timeout: Double = 10) async -> String? {
            let deadline = Date() + timeout
            while true {
                if let newline = buffer.firstIndex(of: 0x0A) {
                    let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                    buffer.removeSubrange(buffer.startIndex...newline)
                    return line
                }
                var entry = pollfd(fd: output.fileDescriptor, events: Int16(POLLIN), revents: 0)
                let ready = poll(&entry, 1, 0)
                if ready > 0 {
                    let chunk = output.availableData
                    if chunk.isEmpty { return nil }
                    buffer.append(chunk)
                    continue
                }
                // Nothing yet, or a signal (SIGCHLD, when another test's child exits) interrupted the look.
                guard ready == 0 || errno == EINTR, deadline.timeIntervalSinceNow > 0 else { return nil }
                try? await Task.sleep(for: .milliseconds(5))
            }
        }

        /// Lines until one contains `text`; nil if stdout ends first or no such line comes within `timeout` seconds.
        func line(containing text: String, timeout: Double = 10) async -> String? {
            let deadline = Date() + timeout
            while let line = await nextLine(timeout: deadline.timeIntervalSinceNow) {
                if line.contains(text) { return line }
            }
            return nil
        }

        /// Sends `signal` and waits (at most `timeout` seconds, on a thread of its own) for the exit; returns the
        /// exit status and stderr. A server that outlives the wait is killed: its status is then SIGKILL's, and
        /// stderr says so.
        func stop(_ signal: Int32 = SIGTERM, timeout: Double = 10) async -> (status: Int32, stderr: String) {
            kill(process.processIdentifier, signal)
            let (child, errors, process) = (child, errors, process)
            return await withCheckedContinuation { continuation in
                Thread {
                    let exited = child.waitForExit(within: timeout)
                    var stderr = String(decoding: errors.wait(within: 5) ?? errors.received, as: UTF8.self)
                    if !exited {
                        stderr += "[RunningServer: no exit within \(timeout) s of signal \(signal); killed]\n"
                    }
                    continuation.resume(returning: (process.isRunning ? -1 : process.terminationStatus, stderr))
                }.start()
            }
        }
    }
#endif

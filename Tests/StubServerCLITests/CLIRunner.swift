// These tests run the built `stub-server` as a process: compiled only where a test can start one.
#if os(macOS) || os(Linux)
    import ChildProcesses
    import Foundation

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

        /// The built `StubbedApp`, found like `executable`.
        static let stubbedApp: URL =
            locate(
                "StubbedApp", override: nil, near: [executable],
                isExecutable: FileManager.default.isExecutableFile(atPath:))
            ?? URL(fileURLWithPath: "StubbedApp-not-built")

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

        /// Runs `stub-server ARGUMENTS` from the package root to completion; the task waits suspended, holding no
        /// thread of the cooperative pool while the tool runs.
        /// - Throws: `TimedOut` when the tool has not exited within `limit` seconds (it is killed).
        static func run(
            _ arguments: [String], environment changes: [String: String?] = [:], limit: Double = 60,
            tool: URL = executable
        ) async throws -> Result {
            let child = try ChildProcess(
                tool.path, arguments: arguments, environment: environment(changes), directory: packageRoot.path)
            let ended = await child.exit(within: limit)
            if ended == nil { await child.kill() }
            let (stdout, stderr) = (await child.stdout!.end(within: 60), await child.stderr!.end(within: 60))
            guard let ended, let stdout, let stderr else {
                throw TimedOut(
                    what: "\(tool.lastPathComponent) \(arguments.joined(separator: " ")) to exit", limit: limit,
                    stdout: stdout ?? child.stdout!.received, stderr: stderr ?? child.stderr!.received)
            }
            return Result(
                status: ended.status, stdout: String(decoding: stdout, as: UTF8.self),
                stderr: String(decoding: stderr, as: UTF8.self))
        }
    }

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

    /// A running `stub-server serve`, read line by line; killed if its test lets go of it while it runs.
    final class RunningServer {
        let process: ChildProcess
        private var consumed = 0

        /// - Parameters:
        ///   - softFileLimit: started through `sh` with this soft open-file limit, as a login shell might set.
        ///   - fileLimit: started through `sh` with this soft and hard open-file limit, which `serve` cannot raise.
        init(
            _ arguments: [String], environment changes: [String: String?] = [:], softFileLimit: Int? = nil,
            fileLimit: Int? = nil
        ) throws {
            let environment = CLIRunner.environment(changes)
            let directory = CLIRunner.packageRoot.path
            if let limit = softFileLimit.map({ "-Sn \($0)" }) ?? fileLimit.map({ "-n \($0)" }) {
                process = try ChildProcess(
                    "/bin/sh",
                    arguments: ["-c", "ulimit \(limit) && exec \"$0\" \"$@\"", CLIRunner.executable.path] + arguments,
                    environment: environment, directory: directory)
            } else {
                process = try ChildProcess(
                    CLIRunner.executable.path, arguments: arguments, environment: environment, directory: directory)
            }
        }

        /// The next line on stdout, or nil once the process closed it or printed nothing for `timeout` seconds: a
        /// tool that stops talking fails its test instead of hanging the run. Looks every few milliseconds and
        /// sleeps between looks: a blocking wait would hold one of the cooperative pool's few threads (two on a
        /// 2-CPU machine) for as long as the tool takes, and stall every other test meanwhile.
        func nextLine(timeout: Double = 60) async -> String? {
            let output = process.stdout!
            let deadline = Date() + timeout
            while true {
                let ended = output.hasEnded
                let received = output.received
                if let newline = received[(received.startIndex + consumed)...].firstIndex(of: 0x0A) {
                    let line = String(decoding: received[(received.startIndex + consumed)..<newline], as: UTF8.self)
                    consumed = newline + 1 - received.startIndex
                    return line
                }
                guard !ended, deadline.timeIntervalSinceNow > 0 else { return nil }
                try? await Task.sleep(for: .milliseconds(5))
            }
        }

        /// Lines until one contains `text`; nil if stdout ends first or no such line comes within `timeout` seconds.
        func line(containing text: String, timeout: Double = 60) async -> String? {
            let deadline = Date() + timeout
            while let line = await nextLine(timeout: deadline.timeIntervalSinceNow) {
                if line.contains(text) { return line }
            }
            return nil
        }

        /// Sends `signal` and waits (at most `timeout` seconds) for the exit; returns the exit status and stderr. A
        /// server that outlives the wait is killed: its status is then SIGKILL's, and stderr says so.
        func stop(_ signal: Int32 = SIGTERM, timeout: Double = 60) async -> (status: Int32, stderr: String) {
            process.signal(signal)
            let ended = await process.exit(within: timeout)
            let errors = process.stderr!
            var stderr = String(decoding: await errors.end(within: 60) ?? errors.received, as: UTF8.self)
            if ended == nil {
                stderr += "[RunningServer: no exit within \(timeout) s of signal \(signal); killed]\n"
            }
            let status: Int32
            if let ended { status = ended.status } else { status = await process.kill()?.status ?? -1 }
            return (status, stderr)
        }
    }
#endif

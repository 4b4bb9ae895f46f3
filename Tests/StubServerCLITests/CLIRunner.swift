import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs the built `stub-server` binary and captures what it prints.
struct CLIRunner {
    /// The built `stub-server`, found beside the test bundle.
    static let executable: URL = {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("stub-server")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: "stub-server-not-built")
    }()

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
    static func run(_ arguments: [String], environment changes: [String: String?] = [:]) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Swift.Result { try runBlocking(arguments, environment: changes) }) }
                .start()
        }
    }

    private static func runBlocking(_ arguments: [String], environment changes: [String: String?]) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment(changes)
        process.currentDirectoryURL = packageRoot
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // stderr stays far below a pipe's buffer, so reading stdout first cannot block the tool.
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }
}

/// A running `stub-server serve`, read line by line.
final class RunningServer {
    let process = Process()
    private let output: FileHandle
    private let errors: Pipe
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
        let out = Pipe()
        errors = Pipe()
        process.standardOutput = out
        process.standardError = errors
        output = out.fileHandleForReading
        try process.run()
    }

    /// The next line on stdout, or nil once the process closed it or printed nothing for `timeout` seconds: a
    /// tool that stops talking fails its test instead of hanging the run.
    func nextLine(timeout: Int32 = 10) -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                return line
            }
            var entry = pollfd(fd: output.fileDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, timeout * 1000) > 0 else { return nil }
            let chunk = output.availableData
            if chunk.isEmpty { return nil }
            buffer.append(chunk)
        }
    }

    /// Lines until one contains `text`; nil if stdout ends first.
    func line(containing text: String) -> String? {
        while let line = nextLine() {
            if line.contains(text) { return line }
        }
        return nil
    }

    /// Sends `signal` and waits for the exit; returns the exit status and stderr.
    func stop(_ signal: Int32 = SIGTERM) -> (status: Int32, stderr: String) {
        kill(process.processIdentifier, signal)
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stderr, as: UTF8.self))
    }
}

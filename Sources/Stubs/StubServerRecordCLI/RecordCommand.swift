import CLISupport
import Foundation
import StubServer
import StubServerRecording

/// `stub-server record` and `stub-server serve --proxy`, parsed.
struct RecordCommand: Command, Equatable {
    static let name = "record"
    var recording = true
    var upstream: URL?
    var fixtures = "MockData"
    var api: String?
    var mode = Recorder.Mode.missing
    var host = "127.0.0.1"
    var port: UInt16 = 8080
    var variant: String?
    var redactHeaders: [String] = []
    var redactQuery: [String] = []
    var timeoutSeconds = 30
    var allowInCI = false

    static let usage = """
        Usage: stub-server record --upstream URL [--fixtures DIR] [--api NAME] [--mode missing|all] [--host H]
                                  [--port N] [--redact-header NAME]... [--redact-query NAME]...
                                  [--upstream-timeout SECONDS] [--allow-in-ci]
               stub-server serve --proxy URL [--fixtures DIR] [--host H] [--port N] [--variant NAME]
                                 [--upstream-timeout SECONDS]

        record: serves DIR; requests no stub matches (--mode missing) or all requests (--mode all) go to the
        upstream, and its answers are written to DIR/NAME as fixtures (NAME: the upstream's host by default).
        Authorization, Cookie, Set-Cookie, Proxy-Authorization and the --redact-* names never reach a file.
        Refused when CI is set, unless --allow-in-ci.
        serve --proxy: requests no stub matches are answered from the upstream; nothing is written.
        """

    /// Reads `record`'s options, or with `recording` false, `serve --proxy`'s.
    static func parse(_ reader: inout OptionReader, recording: Bool) throws(UsageError) -> RecordCommand {
        var command = RecordCommand()
        command.recording = recording
        while let argument = reader.next() {
            guard case .option(let name) = argument else { throw reader.unknown() }
            switch (name, recording) {
            case ("--upstream", true), ("--proxy", false):
                command.upstream =
                    try reader.value("an http:// or https:// URL") { text in
                        URL(string: text).flatMap { url in
                            ["http", "https"].contains(url.scheme ?? "") && url.host != nil ? url : nil
                        }
                    } as URL
            case ("--fixtures", _): command.fixtures = try reader.value()
            case ("--api", true): command.api = try reader.value()
            case ("--mode", true): command.mode = try reader.value("missing or all") { Recorder.Mode(rawValue: $0) }
            case ("--host", _): command.host = try reader.value()
            case ("--port", _): command.port = try reader.value("a number from 0 to 65535") { UInt16($0) }
            case ("--variant", false): command.variant = try reader.value()
            case ("--redact-header", true): command.redactHeaders.append(try reader.value())
            case ("--redact-query", true): command.redactQuery.append(try reader.value())
            case ("--upstream-timeout", _):
                command.timeoutSeconds = try reader.value("a whole number of seconds above 0") {
                    Int($0).flatMap { $0 > 0 ? $0 : nil }
                }
            case ("--allow-in-ci", true):
                try reader.flag()
                command.allowInCI = true
            default: throw reader.unknown()
            }
        }
        guard command.upstream != nil else {
            throw UsageError(
                recording ? "record needs --upstream URL" : "serve --proxy needs a URL", command: reader.command)
        }
        return command
    }

    static func parse(_ reader: inout OptionReader) throws(UsageError) -> RecordCommand {
        try parse(&reader, recording: true)
    }

    func run() async -> Int32 {
        await run(environment: ProcessInfo.processInfo.environment)
    }

    /// Serves until SIGINT or SIGTERM. Exit codes: 0, 1 (refused in CI, bad fixtures, busy port).
    func run(environment: [String: String]) async -> Int32 {
        let signals = TerminationSignals()
        guard let upstream else { return 64 }
        let logWriter = LogWriter()
        let flushTimer = logWriter.startFlushing()
        let configuration = StubServer.Configuration(
            host: host, port: port, variant: variant,
            redaction: Redaction(headers: redactHeaders, query: redactQuery),
            log: { entry in logWriter.append(entry.line) })
        let folder = URL(fileURLWithPath: fixtures)
        let mode: RecordingMode =
            recording
            ? (self.mode == .all ? .all(upstream: upstream) : .missing(upstream: upstream)) : .proxy(upstream: upstream)
        let server: StubServer
        do {
            server = try StubServer.start(
                fixtures: folder, recording: mode, api: api, configuration: configuration,
                timeout: .seconds(timeoutSeconds), environment: environment, allowInCI: allowInCI,
                log: { line in logWriter.append(line) })
        } catch let error as CatalogError {
            Output.error(
                "stub-server: cannot load fixtures from \(fixtures):\n"
                    + error.problems.map { "  \($0)" }.joined(separator: "\n"))
            return 1
        } catch {
            Output.error("stub-server: \(error)")
            return 1
        }
        let destination = recording ? "\(fixtures)/\(api ?? Recorder.apiName(for: upstream))" : fixtures
        let what =
            recording
            ? "Recording \(self.mode == .all ? "every request" : "requests no stub matches") from \(upstream) into \(destination)"
            : "Proxying requests no stub matches to \(upstream), serving \(fixtures)"
        Output.line("\(what) at \(server.baseURL.absoluteString)")
        let signal = await signals.wait()
        await server.stop()
        flushTimer.cancel()
        logWriter.flush()
        Output.error("stub-server: stopped on \(signal)")
        return 0
    }
}

/// `stub-server serve --proxy URL`: `record`'s server, writing nothing.
struct ProxyCommand: Command, Equatable {
    static let name = "serve"
    static let usage = RecordCommand.usage
    var server: RecordCommand

    static func parse(_ reader: inout OptionReader) throws(UsageError) -> ProxyCommand {
        ProxyCommand(server: try RecordCommand.parse(&reader, recording: false))
    }

    func run() async -> Int32 {
        await server.run()
    }
}

import CLISupport
import Foundation
import StubServer
import StubServerRecording

/// `stub-server record` and `stub-server serve --proxy`, parsed.
struct RecordCommand: Equatable {
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
        usage: stub-server record --upstream URL [--fixtures DIR] [--api NAME] [--mode missing|all] [--host H]
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

    /// - Throws: a message for bad usage.
    static func parse(_ arguments: [String]) throws(UsageMessage) -> RecordCommand {
        var command = RecordCommand()
        var rest = arguments[...]
        switch rest.popFirst() {
        case "record": command.recording = true
        case "serve": command.recording = false
        case let other: throw UsageMessage("unknown command '\(other ?? "")'")
        }
        while let flag = rest.popFirst() {
            let parts = flag.split(separator: "=", maxSplits: 1).map(String.init)
            let name = parts[0]
            func value() throws(UsageMessage) -> String {
                if parts.count > 1 { return parts[1] }
                guard let next = rest.popFirst(), !next.hasPrefix("--") else {
                    throw UsageMessage("\(name) needs a value")
                }
                return next
            }
            switch (name, command.recording) {
            case ("--upstream", true), ("--proxy", false):
                let text = try value()
                guard let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme),
                    url.host != nil
                else { throw UsageMessage("\(name) must be an http:// or https:// URL, not '\(text)'") }
                command.upstream = url
            case ("--fixtures", _): command.fixtures = try value()
            case ("--api", true): command.api = try value()
            case ("--mode", true):
                let text = try value()
                guard let mode = Recorder.Mode(rawValue: text) else {
                    throw UsageMessage("--mode must be missing or all, not '\(text)'")
                }
                command.mode = mode
            case ("--host", _): command.host = try value()
            case ("--port", _):
                let text = try value()
                guard let port = UInt16(text) else { throw UsageMessage("--port must be a number from 0 to 65535") }
                command.port = port
            case ("--variant", false): command.variant = try value()
            case ("--redact-header", true): command.redactHeaders.append(try value())
            case ("--redact-query", true): command.redactQuery.append(try value())
            case ("--upstream-timeout", _):
                let text = try value()
                guard let seconds = Int(text), seconds > 0 else {
                    throw UsageMessage("--upstream-timeout must be a whole number of seconds above 0")
                }
                command.timeoutSeconds = seconds
            case ("--allow-in-ci", true): command.allowInCI = true
            default: throw UsageMessage("unknown option '\(flag)'")
            }
        }
        guard command.upstream != nil else {
            throw UsageMessage(command.recording ? "record needs --upstream URL" : "serve --proxy needs a URL")
        }
        return command
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

/// Bad usage, with what was wrong.
struct UsageMessage: Error {
    var text: String

    init(_ text: String) {
        self.text = text
    }
}

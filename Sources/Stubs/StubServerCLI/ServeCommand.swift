import CLISupport
import Dispatch
import HTTPEngine
import Locking
import StubContracts
import StubCore
import StubServer

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `stub-server serve`: serves a fixtures folder (or one file) until SIGINT or SIGTERM.
struct ServeCommand: Command, Equatable {
    static let name = "serve"
    static let usage = Help.serve

    var options = Options()

    /// What `serve` was asked to do.
    struct Options: Equatable {
        var fixtures = "MockData"
        var host = "127.0.0.1"
        var port: UInt16 = 8080
        var variant: String?
        /// Answer every GET with this file instead of serving a fixtures folder.
        var file: String?
        /// The chance, 0...1, that a stubbed answer becomes a fault.
        var chaos: Double = 0
        /// The seed of random faults and chaos; nil picks one.
        var seed: UInt64?
        /// Reload the fixtures folder when a file in it changes.
        var watch = false
        /// Where to write the base URL once the server accepts connections.
        var readyFile: String?
        /// Most open connections; nil: what the open-file limit leaves room for.
        var maxConnections: Int?
        /// Check requests to stubs that stand for an OpenAPI operation against it.
        var contracts = true
        /// Serve HTTPS instead of HTTP.
        var https = false
        /// The local authority's folder; nil: the user's.
        var authority: String?
        /// Names and addresses the certificate names beside the loopback ones.
        var certificateHosts: [String] = []
        /// How every connection's TLS fails.
        var tlsFailure: TLSFailure?
        /// A port to serve plain HTTP on beside HTTPS.
        var httpPort: UInt16?
    }

    static func parse(_ reader: inout OptionReader) throws(UsageError) -> ServeCommand {
        var options = Options()
        while let argument = reader.next() {
            switch argument {
            case .option("--fixtures"): options.fixtures = try reader.value()
            case .option("--host"): options.host = try reader.value()
            case .option("--variant"): options.variant = try reader.value()
            case .option("--file"): options.file = try reader.value()
            case .option("--ready-file"): options.readyFile = try reader.value()
            case .option("--no-contracts"): options.contracts = false
            case .option("--https"):
                try reader.flag()
                options.https = true
            case .option("--authority"): options.authority = try reader.value()
            case .option("--certificate-host"): options.certificateHosts.append(try reader.value())
            case .option("--http-port"):
                options.httpPort = try reader.value("a number from 0 to 65535") { UInt16($0) }
            case .option("--tls-failure"):
                let ids = TLSFailure.allCases.map(\.id).joined(separator: ", ")
                options.tlsFailure = try reader.value("one of \(ids)") { TLSFailure(rawValue: $0) }
            case .option("--watch"):
                try reader.flag()
                options.watch = true
            case .option("--chaos"):
                options.chaos = try reader.value("a number from 0 to 1") {
                    Double($0).flatMap { (0...1).contains($0) ? $0 : nil }
                }
            case .option("--seed"):
                options.seed = try reader.value("a whole number from 0 to \(UInt64.max)") { UInt64($0) } as UInt64
            case .option("--max-connections"):
                options.maxConnections =
                    try reader.value("a whole number above 0") { Int($0).flatMap { $0 > 0 ? $0 : nil } } as Int
            case .option("--port"):
                options.port = try reader.value("a number from 0 to 65535") { UInt16($0) }
            case .option, .operand: throw reader.unknown()
            }
        }
        if !options.https,
            options.authority != nil || !options.certificateHosts.isEmpty || options.tlsFailure != nil
                || options.httpPort != nil
        {
            throw UsageError(
                "--authority, --certificate-host, --tls-failure and --http-port need --https", command: name)
        }
        if options.watch, options.file != nil {
            throw UsageError("--watch watches a fixtures folder; it cannot be used with --file", command: name)
        }
        return ServeCommand(options: options)
    }

    func run() async -> Int32 {
        // Caught before the address is printed: whoever reads it may signal at once.
        let signals = TerminationSignals()
        let catalog: StubCatalog
        let source: String
        if let file = options.file {
            do {
                catalog = try StubCatalog.singleFile(URL(fileURLWithPath: file))
            } catch {
                Output.error("stub-server: cannot read file '\(file)'")
                return 1
            }
            source = file
        } else {
            guard let loaded = StubServerTool.load(options.fixtures) else { return 1 }
            catalog = loaded
            source = options.fixtures
        }
        if let variant = options.variant, !catalog.stubs.contains(where: { $0.variants[variant] != nil }) {
            Output.error("stub-server: no stub has a variant named '\(variant)'")
            return 1
        }
        // The library takes the file limit it finds; a server program may hold as many connections as allowed.
        let fileLimit = OpenFileLimit.raiseToHardLimit()
        let logWriter = LogWriter()
        let pauseReport = PauseReport()
        let flushTimer = logWriter.startFlushing()
        let configuration = StubServer.Configuration(
            host: options.host, port: options.port, variant: options.variant, maxConnections: options.maxConnections,
            log: { entry in logWriter.append(entry.line) }, seed: options.seed, chaos: options.chaos,
            watchFixtures: options.watch,
            onReload: { report in
                logWriter.append("stub-server: " + report.line)
                for problem in report.problems { logWriter.append("  \(problem)") }
            },
            onAcceptPause: { line in
                if pauseReport.shouldReport() { Output.error("stub-server: " + line) }
            },
            https: options.https
                ? StubServer.HTTPS(
                    authorityFolder: options.authority.map { URL(fileURLWithPath: $0) },
                    hosts: options.certificateHosts,
                    failure: options.tlsFailure, plainPort: options.httpPort)
                : nil)
        let server: StubServer
        do {
            server = try StubServer.start(catalog: catalog, configuration: configuration)
        } catch let error as StubServerError {
            switch error {
            case .bindFailed, .httpsFailed:
                Output.error("stub-server: \(error)")
            default:
                Output.error("stub-server: cannot watch \(source): \(error)")
            }
            return 1
        } catch {
            Output.error("stub-server: \(error)")
            return 1
        }
        let host = options.host.contains(":") ? "[\(options.host)]" : options.host
        let scheme = options.https ? "https" : "http"
        Output.line("Serving \(catalog.stubs.count) stubs from \(source) at \(scheme)://\(host):\(server.port)")
        if let authority = server.certificateAuthorityFile {
            Output.line(
                "Certificate signed by the local authority \(authority.path) (stub-server trust: how to trust it)")
        }
        if let plain = server.plainBaseURL, let port = plain.port {
            Output.line("Plain HTTP beside it at http://\(host):\(port)")
        }
        Output.line(Self.connectionLine(limit: server.connectionLimit, chosen: options.maxConnections, fileLimit))
        if options.contracts, server.runtime.installContractChecks() {
            let count = catalog.stubs.filter { $0.contract != nil }.count
            Output.line(
                "Checking requests to \(count) \(count == 1 ? "stub" : "stubs") against their OpenAPI operations "
                    + "(--no-contracts: off)")
        }
        Output.line(RouteTable.render(catalog, serverVariant: options.variant))
        if options.watch { Output.line("Watching \(source) for changes") }
        if let readyFile = options.readyFile {
            do {
                // Written whole or not at all: a script that waits for the file never reads half a URL.
                try Data((server.baseURL.absoluteString + "\n").utf8).write(
                    to: URL(fileURLWithPath: readyFile), options: .atomic)
            } catch {
                Output.error("stub-server: cannot write the ready file '\(readyFile)': \(error)")
                await server.stop()
                return 1
            }
        }
        let drawsAtRandom =
            options.chaos > 0 || catalog.stubs.contains { $0.variants.values.contains { $0.faults != nil } }
        if drawsAtRandom {
            let chaos = options.chaos > 0 ? "chaos \(options.chaos), " : ""
            Output.line("Random faults: \(chaos)seed \(server.seed) (replay this run with --seed \(server.seed))")
        }
        let signal = await signals.wait()
        await server.stop()
        if let readyFile = options.readyFile { try? FileManager.default.removeItem(atPath: readyFile) }
        flushTimer.cancel()
        logWriter.flush()
        Output.error("stub-server: stopped on \(signal)")
        return 0
    }

    /// Says how many connections the server takes and where that number came from.
    static func connectionLine(limit: Int, chosen: Int?, _ fileLimit: (before: Int?, after: Int?)) -> String {
        let count = "Accepting up to \(limit) connections"
        if chosen != nil { return count + " (--max-connections)" }
        guard let after = fileLimit.after else { return count + " (no open-file limit)" }
        if let before = fileLimit.before, before != after {
            return count + " (open-file limit \(after), raised from \(before))"
        }
        return count + " (open-file limit \(after))"
    }
}

/// One line about running out of file descriptors, not one per failed accept: the first pause is reported, then
/// at most one every ten seconds while the shortage lasts.
private final class PauseReport: Sendable {
    private let last = Lock<ContinuousClock.Instant?>(nil)

    func shouldReport() -> Bool {
        let now = ContinuousClock.now
        return last.withLock { last in
            if let previous = last, previous.duration(to: now) < .seconds(10) { return false }
            last = now
            return true
        }
    }
}

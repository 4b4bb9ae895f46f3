import CLISupport
import Dispatch
import Foundation
import StubServer

/// `stub-server serve`: serves a fixtures folder (or one file) until SIGINT or SIGTERM.
struct ServeCommand {
    var options: CLICommand.ServeOptions

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
        let logWriter = LogWriter()
        let flushTimer = logWriter.startFlushing()
        let configuration = StubServer.Configuration(
            host: options.host, port: options.port, variant: options.variant,
            log: { entry in logWriter.append(entry.line) }, seed: options.seed, chaos: options.chaos)
        let server: StubServer
        do {
            server = try StubServer.start(catalog: catalog, configuration: configuration)
        } catch {
            Output.error("stub-server: cannot listen on \(options.host):\(options.port): \(error)")
            return 1
        }
        let host = options.host.contains(":") ? "[\(options.host)]" : options.host
        Output.line("Serving \(catalog.stubs.count) stubs from \(source) at http://\(host):\(server.port)")
        Output.line(RouteTable.render(catalog, serverVariant: options.variant))
        let drawsAtRandom =
            options.chaos > 0 || catalog.stubs.contains { $0.variants.values.contains { $0.faults != nil } }
        if drawsAtRandom {
            let chaos = options.chaos > 0 ? "chaos \(options.chaos), " : ""
            Output.line("Random faults: \(chaos)seed \(server.seed) (replay this run with --seed \(server.seed))")
        }
        let signal = await signals.wait()
        await server.stop()
        flushTimer.cancel()
        logWriter.flush()
        Output.error("stub-server: stopped on \(signal)")
        return 0
    }
}

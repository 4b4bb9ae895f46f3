import CLISupport
import StubCore
import StubMutations
import StubServer

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `stub-server sweep --fixtures DIR --stub NAME [--variant V] [--timeout SECONDS] [--jobs N] [--report FILE] --
/// COMMAND [ARGS...]`: serves DIR on a free loopback port and runs COMMAND once on the unmutated answer (which must
/// pass), then once per mutant of the stub's variant, each chosen for the stub while it runs (with `--jobs N`, N
/// runs at once, each against a server of its own); reports which mutants the command passed, failed, crashed on or
/// hung on. With `--tls` instead of a stub, the command runs against an HTTPS server of DIR, then once per TLS
/// failure against a server that presents it.
struct SweepCommand: Command, Equatable {
    static let name = "sweep"
    static let usage = Help.sweep
    var folder = "MockData"
    /// The stub swept; nil with `--tls`.
    var stub: String?
    var variant = "good"
    var timeout = 10.0
    var jobs = 1
    var report: String?
    /// The authority's folder for `--tls` (nil: the user's).
    var authority: String?
    var command: [String]

    static func parse(_ reader: inout OptionReader) throws(UsageError) -> SweepCommand {
        var folder = "MockData"
        var stub: String?
        var variant: String?
        var timeout = 10.0
        var jobs = 1
        var report: String?
        var tls = false
        var authority: String?
        var command: [String] = []
        while let argument = reader.next() {
            switch argument {
            case .option("--fixtures"): folder = try reader.value()
            case .option("--stub"): stub = try reader.value()
            case .option("--variant"): variant = try reader.value()
            case .option("--tls"): tls = true
            case .option("--authority"): authority = try reader.value()
            case .option("--timeout"):
                timeout = try reader.value("a number of seconds above 0") { Double($0).flatMap { $0 > 0 ? $0 : nil } }
            case .option("--jobs"):
                jobs = try reader.value("a whole number of runs at once, 1 or more") {
                    Int($0).flatMap { $0 > 0 ? $0 : nil }
                }
            case .option("--report"): report = try reader.value()
            case .option("--"): command = reader.remainingWords()
            case .option, .operand: throw reader.unknown()
            }
        }
        if tls {
            guard stub == nil, variant == nil else {
                throw UsageError(
                    "sweep --tls sweeps the TLS failures of the whole server: no --stub or --variant",
                    command: name)
            }
            guard jobs == 1 else {
                throw UsageError("sweep --tls runs one failure at a time, a server each: no --jobs", command: name)
            }
        } else {
            guard stub != nil else { throw UsageError("sweep needs --stub NAME (or --tls)", command: name) }
            guard authority == nil else { throw UsageError("--authority needs --tls", command: name) }
        }
        guard !command.isEmpty else {
            throw UsageError("sweep needs a command to run after --: sweep ... -- COMMAND [ARGS...]", command: name)
        }
        return SweepCommand(
            folder: folder, stub: stub, variant: variant ?? "good", timeout: timeout, jobs: jobs, report: report,
            authority: authority, command: command)
    }

    /// Exits 0 when the command passed every mutant, 1 when it did not (or the folder, stub or variant is
    /// missing, or the report cannot be written), 64 when it fails on the unmutated answer or cannot be started.
    func run() async -> Int32 {
        guard let catalog = StubServerTool.load(folder) else { return 1 }
        guard let stub else { return await sweepTLS(catalog) }
        let mutants: [Mutation]
        do {
            mutants = try catalog.existingVariant(variant, ofStub: stub).mutants
        } catch {
            Output.error(error.description)
            return 1
        }
        var servers: [StubServer] = []
        do {
            for _ in 0..<min(jobs, max(1, mutants.count)) {
                let server = try StubServer.start(catalog: catalog)
                servers.append(server)
                if variant != "good" { try server.setVariant(variant, forStub: stub) }
            }
        } catch {
            for server in servers { await server.stop() }
            Output.error("stub-server sweep: \(error)")
            return 1
        }
        let runner = SweepRunner(command: command, timeout: timeout, environment: ProcessInfo.processInfo.environment)
        let stopper = Task { await runner.stopOnSignal() }
        defer { stopper.cancel() }

        let baseline: SweepRun
        switch await self.baseline(runner, servers[0], answer: "the unmutated answer of \(stub) (\(variant))") {
        case .success(let run): baseline = run
        case .failure(let status):
            for server in servers { await server.stop() }
            return status.code
        }

        let results: [SweepRun]
        switch await sweep(mutants, of: stub, servers: servers, runner: runner) {
        case .success(let runs): results = runs
        case .failure(.stopped): return await stopped(servers)
        case .failure(.server(let message)):
            for server in servers { await server.stop() }
            Output.error("stub-server sweep: \(message)")
            return 1
        }
        for server in servers { await server.stop() }

        return finish(
            SweepReport(
                stub: (stub, variant), command: command, timeoutSeconds: timeout, baseline: baseline, results: results))
    }

    /// Prints the summary and writes the report; 0 when every run passed, 1 when one did not or the report cannot
    /// be written.
    private func finish(_ report: SweepReport) -> Int32 {
        Output.line(report.summary)
        if let path = self.report {
            do {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                try encoder.encode(report).write(to: URL(fileURLWithPath: path))
            } catch {
                Output.error("stub-server sweep: cannot write the report to \(path): \(error)")
                return 1
            }
        }
        return report.counts.passed == report.results.count ? 0 : 1
    }

    /// An exit status, as a failure.
    struct ExitStatus: Error {
        var code: Int32
    }

    /// Runs the command on `server` unmutated: its run when it passed, else the exit status the sweep ends with
    /// (64: the command failed or could not start, 130: a signal stopped the sweep).
    private func baseline(_ runner: SweepRunner, _ server: StubServer, answer: String) async -> Result<
        SweepRun, ExitStatus
    > {
        let baseline: SweepRun
        do {
            baseline = try await runner.run(mutation: nil, server: server.baseURL.absoluteString)
        } catch {
            Output.error("stub-server sweep: cannot start the command: \(error)")
            return .failure(ExitStatus(code: 64))
        }
        if runner.stopped {
            Output.error("stub-server sweep: stopped by a signal; no report written")
            return .failure(ExitStatus(code: 130))
        }
        guard baseline.outcome == .passed else {
            Output.error(
                "stub-server sweep: the command \(baseline.outcome.rawValue) (\(baseline.detail)) on \(answer), so "
                    + "no mutant can tell anything: fix the command first."
                    + (baseline.output.isEmpty
                        ? "" : " Its last lines:\n" + baseline.output.map { "  \($0)" }.joined(separator: "\n")))
            return .failure(ExitStatus(code: 64))
        }
        Output.line("baseline  passed  (\(baseline.detail))")
        return .success(baseline)
    }

    /// `--tls`: the command against an HTTPS server of `catalog`, then once per TLS failure against a server of
    /// its own that presents it; `STUB_SERVER_AUTHORITY_FILE` names the authority's certificate for the command to
    /// trust, `STUB_MUTATION` the failure.
    private func sweepTLS(_ catalog: StubCatalog) async -> Int32 {
        let folder = authority.map { URL(fileURLWithPath: $0) }
        func start(_ failure: TLSFailure?) throws -> StubServer {
            let https = StubServer.HTTPS(authorityFolder: folder, failure: failure)
            return try StubServer.start(catalog: catalog, configuration: StubServer.Configuration(https: https))
        }
        let good: StubServer
        do {
            good = try start(nil)
        } catch {
            Output.error("stub-server sweep: \(error)")
            return 1
        }
        var environment = ProcessInfo.processInfo.environment
        environment["STUB_SERVER_AUTHORITY_FILE"] = good.certificateAuthorityFile?.path
        let runner = SweepRunner(command: command, timeout: timeout, environment: environment)
        let stopper = Task { await runner.stopOnSignal() }
        defer { stopper.cancel() }
        let baseline: SweepRun
        switch await self.baseline(runner, good, answer: "HTTPS without a failure") {
        case .success(let run): baseline = run
        case .failure(let status):
            await good.stop()
            return status.code
        }
        await good.stop()
        var results: [SweepRun] = []
        for failure in TLSFailure.allCases {
            let server: StubServer
            do {
                server = try start(failure)
            } catch {
                Output.error("stub-server sweep: \(failure.id): \(error)")
                return 1
            }
            var result: SweepRun
            do {
                result = try await runner.run(mutation: failure.id, server: server.baseURL.absoluteString)
            } catch {
                await server.stop()
                Output.error("stub-server sweep: \(failure.id): \(error)")
                return 1
            }
            await server.stop()
            if runner.stopped { return await stopped([]) }
            result.description = failure.summary
            Output.line("\(result.outcome.rawValue.padding(8))\(failure.id)  (\(result.detail))")
            results.append(result)
        }
        return finish(
            SweepReport(stub: nil, command: command, timeoutSeconds: timeout, baseline: baseline, results: results))
    }
}

extension SweepCommand {
    /// Why a sweep ended before its last mutant.
    enum Interruption: Error {
        /// A SIGINT or SIGTERM.
        case stopped
        /// A mutant could not be chosen, or the command could not be started.
        case server(String)
    }

    /// Runs the command once per mutant, `servers.count` runs at once: lane K runs mutants K, K + N, ... against
    /// server K, printing a line as each ends. The results are in the mutants' order.
    fileprivate func sweep(
        _ mutants: [Mutation], of stub: String, servers: [StubServer], runner: SweepRunner
    ) async -> Result<[SweepRun], Interruption> {
        await withTaskGroup(of: Result<[(Int, SweepRun)], Interruption>.self) { group in
            for (lane, server) in servers.enumerated() {
                group.addTask {
                    var done: [(Int, SweepRun)] = []
                    for index in stride(from: lane, to: mutants.count, by: servers.count) {
                        if Task.isCancelled { break }
                        let mutant = mutants[index]
                        do {
                            try server.setMutation(mutant.id, forStub: stub)
                            var result = try await runner.run(
                                mutation: mutant.id, server: server.baseURL.absoluteString)
                            if runner.stopped { return .failure(.stopped) }
                            result.description = mutant.description
                            Output.line("\(result.outcome.rawValue.padding(8))\(mutant.id)  (\(result.detail))")
                            done.append((index, result))
                        } catch {
                            return .failure(.server("\(mutant.id): \(error)"))
                        }
                    }
                    return .success(done)
                }
            }
            var results = [SweepRun?](repeating: nil, count: mutants.count)
            for await lane in group {
                switch lane {
                case .success(let done): for (index, result) in done { results[index] = result }
                case .failure(let interruption):
                    group.cancelAll()
                    return .failure(interruption)
                }
            }
            return .success(results.compactMap { $0 })
        }
    }

    /// Stops the servers after a SIGINT or SIGTERM, and exits as a shell reports an interrupted command.
    fileprivate func stopped(_ servers: [StubServer]) async -> Int32 {
        for server in servers { await server.stop() }
        Output.error("stub-server sweep: stopped by a signal; no report written")
        return 130
    }
}

extension String {
    /// This text followed by spaces up to `width` characters, and at least one.
    fileprivate func padding(_ width: Int) -> String {
        self + String(repeating: " ", count: max(1, width - count))
    }
}

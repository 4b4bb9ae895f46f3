/// One run of a sweep's command: on the unmutated answer (the baseline) or on one mutant.
struct SweepRun: Encodable, Equatable {
    /// How the run ended: exit 0, another exit status, a signal, or still running at the timeout (then killed).
    enum Outcome: String, Encodable, CaseIterable {
        case passed, failed, crashed, hung
    }

    /// The mutant's ID; nil for the baseline.
    var mutation: String?
    /// What the mutant does.
    var description: String?
    var outcome: Outcome
    var exitStatus: Int32?
    var signal: Int32?
    var seconds: Double
    /// The last lines the command wrote (standard output and error together).
    var output: [String]

    /// `exit status 1, 0.04 s`, `signal 11, 0.03 s` or `killed after 5 s`.
    var detail: String {
        let time = "\((seconds * 100).rounded() / 100) s"
        if let exitStatus { return "exit status \(exitStatus), \(time)" }
        if let signal { return "signal \(signal), \(time)" }
        return "killed after \(time)"
    }
}

/// What `stub-server sweep --report FILE` writes: the stub, its variant, the command, the baseline and one result
/// per mutant, and the counts per outcome.
struct SweepReport: Encodable {
    struct Counts: Encodable, Equatable {
        var passed = 0
        var failed = 0
        var crashed = 0
        var hung = 0
    }

    /// The stub and variant swept; nil for a sweep of the TLS failures.
    var stub: String?
    var variant: String?
    /// True for a sweep of the TLS failures (`sweep --tls`); absent otherwise.
    var tls: Bool?
    var command: [String]
    var timeoutSeconds: Double
    var baseline: SweepRun
    var results: [SweepRun]
    var counts: Counts

    /// - Parameter stub: the stub and its variant; nil for a sweep of the TLS failures.
    init(
        stub: (name: String, variant: String)?, command: [String], timeoutSeconds: Double, baseline: SweepRun,
        results: [SweepRun]
    ) {
        (self.stub, self.variant, tls) = (stub?.name, stub?.variant, stub == nil ? true : nil)
        (self.command, self.timeoutSeconds) = (command, timeoutSeconds)
        (self.baseline, self.results) = (baseline, results)
        counts = Counts()
        for result in results {
            switch result.outcome {
            case .passed: counts.passed += 1
            case .failed: counts.failed += 1
            case .crashed: counts.crashed += 1
            case .hung: counts.hung += 1
            }
        }
    }

    /// `swept 469 mutants of top-albums (good): 450 passed, 10 failed, 5 crashed, 4 hung`, or `swept 9 TLS
    /// failures: ...`.
    var summary: String {
        let what = stub.map { "mutants of \($0) (\(variant ?? "good"))" } ?? "TLS failures"
        return "swept \(results.count) \(what): \(counts.passed) passed, \(counts.failed) failed, "
            + "\(counts.crashed) crashed, \(counts.hung) hung"
    }
}

import CLISupport
import Locking
import Spawning

/// Runs a sweep's command once per answer: in a process group of its own, its output in an unnamed file, its end
/// awaited until a deadline, then the whole group killed (a hung command, or what it left running).
final class SweepRunner: Sendable {
    let command: [String]
    let timeout: Double
    private let environment: [String: String]
    /// The running command's process ID, and whether a SIGINT or SIGTERM stopped the sweep.
    private let state = Lock<(running: Int32?, stopped: Bool)>((nil, false))
    private let signals = TerminationSignals()

    /// - Parameter environment: the command's environment, to which each run adds `STUB_MUTATION`.
    init(command: [String], timeout: Double, environment: [String: String]) {
        self.command = command
        self.timeout = timeout
        self.environment = environment
    }

    /// Whether a SIGINT or SIGTERM stopped the sweep (the run it cut short is not a result).
    var stopped: Bool { state.withLock { $0.stopped } }

    /// Runs the command with `STUB_MUTATION` set to `mutation` (unset for the baseline).
    /// - Throws: `Spawn.Failure` when the command cannot be started (not found, not executable).
    func run(mutation: String?) async throws(Spawn.Failure) -> SweepRun {
        var environment = self.environment
        environment["STUB_MUTATION"] = mutation
        let output = try Spawn.OutputFile()
        let clock = ContinuousClock()
        let start = clock.now
        let pid = try Spawn.start(
            command[0], arguments: Array(command.dropFirst()), environment: environment,
            stdout: .descriptor(output.descriptor), stderr: .descriptor(output.descriptor), searchPath: true,
            newProcessGroup: true)
        state.withLock { $0.running = pid }
        let ended = await end(of: pid, by: start + .seconds(timeout))
        // What the command left running in its group goes with it; a hung command goes now.
        Spawn.killGroup(of: pid)
        state.withLock { $0.running = nil }
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        var run = SweepRun(mutation: mutation, outcome: .hung, seconds: seconds, output: output.lastLines(20))
        switch ended {
        case .exited(let status)?: (run.outcome, run.exitStatus) = (status == 0 ? .passed : .failed, status)
        case .signalled(let signal)?: (run.outcome, run.signal) = (.crashed, signal)
        case nil: break
        }
        return run
    }

    /// Waits for a SIGINT or SIGTERM to the sweep, then kills the running command's group and marks the sweep
    /// stopped.
    func stopOnSignal() async {
        _ = await signals.wait()
        let running = state.withLock { state in
            state.stopped = true
            return state.running
        }
        if let running { Spawn.killGroup(of: running) }
    }

    /// How `pid` ended, looked at between short sleeps; nil when it still ran at `deadline`.
    private func end(of pid: Int32, by deadline: ContinuousClock.Instant) async -> Termination? {
        var pause = Duration.milliseconds(1)
        while true {
            if let ended = Spawn.ended(pid) { return ended }
            if ContinuousClock.now >= deadline || Task.isCancelled || stopped { return nil }
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, .milliseconds(20))
        }
    }
}

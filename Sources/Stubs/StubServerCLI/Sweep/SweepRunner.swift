import CLISupport
import Locking
import Spawning

/// Runs a sweep's command once per answer, as many at once as the sweep's jobs: each in a process group of its own,
/// its output in an unnamed file, its end awaited until a deadline, then the whole group killed (a hung command, or
/// what it left running).
final class SweepRunner: Sendable {
    let command: [String]
    let timeout: Double
    private let environment: [String: String]
    /// The running commands' process IDs, and whether a SIGINT or SIGTERM stopped the sweep.
    private let state = Lock<(running: Set<Int32>, stopped: Bool)>(([], false))
    private let signals = TerminationSignals()

    /// - Parameter environment: the command's environment, to which each run adds `STUB_MUTATION`.
    init(command: [String], timeout: Double, environment: [String: String]) {
        self.command = command
        self.timeout = timeout
        self.environment = environment
    }

    /// Whether a SIGINT or SIGTERM stopped the sweep (the run it cut short is not a result).
    var stopped: Bool { state.withLock { $0.stopped } }

    /// Runs the command with `STUB_SERVER_URL` set to `server` and `STUB_MUTATION` to `mutation` (unset for the
    /// baseline).
    /// - Throws: `Spawn.Failure` when the command cannot be started (not found, not executable).
    func run(mutation: String?, server: String) async throws(Spawn.Failure) -> SweepRun {
        var environment = self.environment
        environment["STUB_SERVER_URL"] = server
        environment["STUB_MUTATION"] = mutation
        let output = try Spawn.OutputFile()
        let clock = ContinuousClock()
        let start = clock.now
        let pid = try Spawn.start(
            command[0], arguments: Array(command.dropFirst()), environment: environment,
            stdout: .descriptor(output.descriptor), stderr: .descriptor(output.descriptor), searchPath: true,
            newProcessGroup: true)
        state.withLock { _ = $0.running.insert(pid) }
        let ended = await waitForEnd(of: pid, by: start + .seconds(timeout))
        state.withLock { _ = $0.running.remove(pid) }
        // Not reaped yet, so its group is still its own: what the command left running goes with it, and a hung
        // command goes now.
        let termination = Spawn.endGroup(of: pid)
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        var run = SweepRun(mutation: mutation, outcome: .hung, seconds: seconds, output: output.lastLines(20))
        switch (ended, termination) {
        case (true, .exited(let status)): (run.outcome, run.exitStatus) = (status == 0 ? .passed : .failed, status)
        case (true, .signalled(let signal)): (run.outcome, run.signal) = (.crashed, signal)
        case (false, _): break
        }
        return run
    }

    /// Waits for a SIGINT or SIGTERM to the sweep, then kills the running commands' groups and marks the sweep
    /// stopped.
    func stopOnSignal() async {
        _ = await signals.wait()
        state.withLock { state in
            state.stopped = true
            // Under the lock `run` clears it with before reaping: the group is still the command's.
            for running in state.running { Spawn.killGroup(of: running) }
        }
    }

    /// Whether `pid` ended before `deadline` (or a signal stopped the sweep), looked at between short sleeps.
    private func waitForEnd(of pid: Int32, by deadline: ContinuousClock.Instant) async -> Bool {
        var pause = Duration.milliseconds(1)
        while true {
            if Spawn.hasEnded(pid) { return true }
            if ContinuousClock.now >= deadline || Task.isCancelled || stopped { return false }
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, .milliseconds(20))
        }
    }
}

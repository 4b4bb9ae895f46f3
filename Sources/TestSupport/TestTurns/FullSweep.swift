import Foundation

/// Whether this run is a full sweep: `SWEEP=all` in the environment (a step of `.ci/run`, the sweeps alone), where
/// every sweep meets every mutant and the turns the heavy suites take are set for the sweeps.
package enum FullSweep {
    package static let isOn = ProcessInfo.processInfo.environment["SWEEP"] == "all"
}

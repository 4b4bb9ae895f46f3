import Foundation
import Networking
import StubServerTesting
import StubTestSupport
import TestTurns
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the screens' sweeps share: which mutants they run, and the client they load through.
enum Sweep {
    /// With `SWEEP=all` in the environment (a step of `.ci/run`), every mutant; otherwise the whole-answer ones
    /// (bodies, types, statuses, faults, the late answer) and every twentieth of the rest, so that a plain
    /// `swift test` stays fast. Every mutant of a screen costs seconds to tens of seconds of CPU in a debug build.
    static func cases(_ mutants: [StubMutant]) -> [StubMutant] {
        if FullSweep.isOn { return mutants }
        let whole = ["body:", "content-type:", "status:", "fault:", "delay:"]
        var values = 0
        return mutants.filter { mutant in
            if whole.contains(where: mutant.id.hasPrefix) { return true }
            values += 1
            return values % 20 == 1
        }
    }

    /// For the stream sweeps: with `SWEEP=all`, every item; otherwise those whose ID starts with one of `prefixes`,
    /// and every `every`th of the rest (none for 0), so that a plain `swift test` (on one core too) stays within its
    /// minute.
    static func sample<Item>(_ items: [Item], id: (Item) -> String, keeping prefixes: [String], every: Int) -> [Item] {
        if FullSweep.isOn { return items }
        var rest = 0
        return items.filter { item in
            if prefixes.contains(where: id(item).hasPrefix) { return true }
            rest += 1
            return every > 0 && rest % every == 1
        }
    }

    /// The real client reaching `configuration`'s stubs, every request bounded by a 2 s timeout (the apps'
    /// endpoints leave it to URLSession's 60 s, and in process only the request's own timeout applies).
    static func client(_ configuration: URLSessionConfiguration) -> any HTTPClient {
        BoundedClient(base: realClient(timeout: 2, configuration: configuration))
    }

    private struct BoundedClient: HTTPClient {
        let base: URLSessionHTTPClient

        func send(_ request: HTTPRequest) async throws(APIError) -> HTTPResponse {
            var request = request
            request.timeout = request.timeout ?? 2
            return try await base.send(request)
        }
    }
}

/// The sweeps' turns.
extension Slots {
    /// At most so many sweep cases with a client that keeps time (an idle limit, a patience) run at once. Under
    /// `SWEEP=all` hundreds of cases start together, and a client started among them all would see its server
    /// starved for longer than any limit it keeps: there, 16 at a time. A plain `swift test` runs a sample, and
    /// limiting it would only make it wait.
    static let sweepCases = Slots(count: FullSweep.isOn ? 16 : 1_000)

    /// Exit tests run one at a time by default. Swift Testing on Linux reads a running exit test's events with a blocking read
    /// on a cooperative thread until its child ends (swift-testing, ExitTest.swift, `_processRecords(fromBackChannel:)`),
    /// so each exit test under way holds one of the pool's threads, as many as the cores: two at once stopped every
    /// other test on a 2-core machine. And a child that ended before its parent's task registered its wait keeps
    /// Swift Testing's waiter thread spinning in `waitid` (WaitFor.swift) until it does: 70% of a core in a run of
    /// the fragile client's exit tests alone. Under `SWEEP=all` (CI's sweep step: the sweeps alone, ~450
    /// children) four at once: with no limit all of them started together and the machine was theirs for tens of
    /// seconds (the feed's careful screen, started among them, ran out of patience for 9 mutants in a CI run).
    static let exitTests = Slots(count: FullSweep.isOn ? 4 : 1)
}

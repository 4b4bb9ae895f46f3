#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// What the last reload of a server's fixtures folder did: when, what changed, and what it serves now.
public struct ReloadReport: Sendable, Equatable, Codable {
    public var time: Date
    /// Whether the new catalog is served; when not, the previous one still is.
    public var succeeded: Bool
    /// The number of stubs served after the reload.
    public var stubs: Int
    /// What was wrong with the folder, with file and key path; empty when the reload succeeded.
    public var problems: [FixtureProblem]
    /// The files whose change started the reload (relative to the folder); empty for a reload asked for.
    public var changed: [String]

    package init(time: Date, succeeded: Bool, stubs: Int, problems: [FixtureProblem] = [], changed: [String] = []) {
        self.time = time
        self.succeeded = succeeded
        self.stubs = stubs
        self.problems = problems
        self.changed = changed
    }

    /// One line for a log: `reloaded (albums/stubs.json changed): 12 stubs`, or the number of problems.
    package var line: String {
        let cause = changed.isEmpty ? "" : " (\(changed.joined(separator: ", ")) changed)"
        if succeeded { return "reloaded\(cause): serving \(stubs) stubs" }
        let count = problems.count == 1 ? "1 problem" : "\(problems.count) problems"
        return "reload failed\(cause): \(count); still serving the previous \(stubs) stubs"
    }
}

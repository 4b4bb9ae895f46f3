import Foundation
import Networking
import StubServerTesting
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
        if ProcessInfo.processInfo.environment["SWEEP"] == "all" { return mutants }
        let whole = ["body:", "content-type:", "status:", "fault:", "delay:"]
        var values = 0
        return mutants.filter { mutant in
            if whole.contains(where: mutant.id.hasPrefix) { return true }
            values += 1
            return values % 20 == 1
        }
    }

    /// For the stream sweeps: with `SWEEP=all`, every item; otherwise those whose ID starts with one of `prefixes`,
    /// and every `every`th of the rest, so that a plain `swift test` (on one core too) stays within its minute.
    static func sample<Item>(_ items: [Item], id: (Item) -> String, keeping prefixes: [String], every: Int) -> [Item] {
        if ProcessInfo.processInfo.environment["SWEEP"] == "all" { return items }
        var rest = 0
        return items.filter { item in
            if prefixes.contains(where: id(item).hasPrefix) { return true }
            rest += 1
            return rest % every == 1
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

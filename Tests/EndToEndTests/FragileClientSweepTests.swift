import Foundation
import StubServerTesting
import StubTestSupport
import TestTurns
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Proof that a sweep catches what it exists to catch: a deliberately fragile client (a forced cast, `results[0]`,
/// a date parsed with `!`, a loop that waits for a non-empty list) run against every mutant of a small answer in a
/// child process (an exit test) is reported crashed, failed or hung for exactly the mutants that break one of its
/// assumptions, read off each mutant's answer; a careful client passes them all.
// Ten minutes: under SWEEP=all (CI's sweep step) thousands of cases start at once and each case's clock runs
// while it waits its turn, so a minute fails cases that are only queued.
@Suite(.takesTurns(.heavy), .timeLimit(.minutes(10)))
struct FragileClientSweepTests {
    static let releases = URL(string: "https://releases.example/v1/releases")!

    /// A client written the way sweeps exist to catch: every assumption about the answer is forced.
    enum FragileClient {
        static func firstRelease(_ configuration: URLSessionConfiguration) async throws -> String {
            let session = URLSession(configuration: configuration)
            var results: [[String: Any]] = []
            while true {
                let (data, _) = try await session.data(from: releases)
                let object = try JSONSerialization.jsonObject(with: data) as! [String: Any]
                results = object["results"] as! [[String: Any]]
                if !results.isEmpty { break }
                try await Task.sleep(for: .milliseconds(200))
            }
            let first = results[0]
            let name = first["name"] as! String
            let released = ISO8601DateFormatter().date(from: first["released"] as! String)!
            return "\(name), \(released)"
        }
    }

    /// The same screen written with care: a bounded request, optional fields, a state for every answer.
    enum CarefulClient {
        enum Screen: Equatable {
            case release(String)
            case empty
            case failed(String)
        }

        private struct Page: Decodable {
            struct Release: Decodable {
                var name: String?
                var released: String?
            }
            var results: [Release]?
        }

        static func firstRelease(_ configuration: URLSessionConfiguration) async -> Screen {
            do {
                let request = URLRequest(url: releases, timeoutInterval: 2)
                let (data, response) = try await URLSession(configuration: configuration).data(for: request)
                guard (response as? HTTPURLResponse)?.statusCode == 200 else { return .failed("The server is unwell.") }
                let page = try JSONDecoder().decode(Page.self, from: data)
                guard let first = page.results?.first(where: { $0.name?.isEmpty == false }), let name = first.name
                else { return .empty }
                let date = first.released.flatMap(ISO8601DateFormatter().date(from:))
                return .release(date.map { "\(name), \($0)" } ?? name)
            } catch {
                return .failed("The releases could not be loaded.")
            }
        }
    }

    /// What the fragile client's assumptions make of `mutant`'s answer. By its ID, an answer that does not come in
    /// time (`fault:hang`, `delay:past-timeout`) hangs it (it sets no timeout) and a broken connection (the other
    /// faults) fails it (it throws); the other answers are fetched in this process and read: a body that is not JSON
    /// fails it, JSON that is not an object with a list of objects, a first element without a string `name`, or a
    /// `released` that is no ISO 8601 date crashes it; an empty list hangs it (it asks again forever).
    static func expectedOutcome(of mutant: StubMutant) async throws -> StubMutant.Outcome {
        if mutant.id == "fault:hang" || mutant.id.hasPrefix("delay:") { return .hung }
        if mutant.id.hasPrefix("fault:") { return .failed }
        return try await mutant.withStubs { stubs in
            let session = URLSession(configuration: stubs.sessionConfiguration)
            // The request's own limit: in process, a session configuration's is not applied.
            let data = try await session.data(for: URLRequest(url: releases, timeoutInterval: 5)).0
            guard let json = try? JSONSerialization.jsonObject(with: data) else { return .failed }
            guard let object = json as? [String: Any], let results = object["results"] as? [[String: Any]] else {
                return .crashed
            }
            guard let first = results.first else { return .hung }
            guard first["name"] is String, let released = first["released"] as? String,
                ISO8601DateFormatter().date(from: released) != nil
            else { return .crashed }
            return .passed
        }
    }

    /// Which of them: `Sweep` (every one under `SWEEP=all`).
    static let mutants = Result { try Sweep.cases(StubMutant.all(of: "releases", fixtures: "FragileFixtures")) }

    /// Which the fragile client meets, each in a child process run one at a time (`Slots.exitTests`):
    /// every one under `SWEEP=all`; otherwise a few of each outcome, so that a plain `swift test` on one core ends
    /// within its minutes.
    static let fragileMutants = Result {
        Sweep.sample(
            try StubMutant.all(of: "releases", fixtures: "FragileFixtures"), id: \.id,
            keeping: [
                "body:empty", "body:{}", "status:204", "fault:reset", "fault:hang", "results:empty", "$:unknown-key",
                "content-type:text/plain", "results[*].name:null", "results[*].released:date-garbage",
            ], every: 0)
    }

    #if compiler(>=6.3) && (os(macOS) || os(Linux))
        @Test(arguments: try fragileMutants.get())
        func theFragileClient_breaksOnExactlyTheMutantsThatBreakAnAssumption(_ mutant: StubMutant) async throws {
            let expected = try await Self.expectedOutcome(of: mutant)
            // The window that calls a run hung: 3 s for the mutants predicted to hang (their run never ends, so the
            // wait is their whole cost); a minute, which only ends a hang, for the rest, whose child may start slowly
            // on a busy machine.
            let seconds = expected == .hung ? 3 : 60
            let result = await Slots.holding(.exitTests) {
                await #expect(processExitsWith: expected == .passed ? .success : .failure) {
                    [mutant, seconds = seconds as Int] in
                    await mutant.exitAfter(within: .seconds(seconds)) { stubs in
                        _ = try await FragileClient.firstRelease(stubs.sessionConfiguration)
                    }
                }
            }
            #expect(result.map(StubMutant.Outcome.init) == expected, "\(mutant.id)")
        }

    #endif

    /// In process: a careful client neither crashes nor hangs (its request is bounded), so it needs no child process.
    @Test(arguments: try mutants.get())
    func theCarefulClient_endsEveryMutantOnAScreen(_ mutant: StubMutant) async throws {
        let screen = try await mutant.withStubs { stubs in await CarefulClient.firstRelease(stubs.sessionConfiguration)
        }
        if case .release(let text) = screen { #expect(!text.isEmpty, "\(mutant.id)") }
    }

    @Test func theExpectedOutcomes_coverEveryKind() async throws {
        let counts = try await withThrowingTaskGroup(of: StubMutant.Outcome.self) { group in
            for mutant in try Self.mutants.get() { group.addTask { try await Self.expectedOutcome(of: mutant) } }
            return try await group.reduce(into: [StubMutant.Outcome: Int]()) { $0[$1, default: 0] += 1 }
        }
        // 79 mutants: 26 passed, 16 failed, 34 crashed, 3 hung when this was written.
        #expect(Set(counts.keys) == Set(StubMutant.Outcome.allCases), "\(counts)")
    }
}

// Runs the built `InProcessProbe` (Linux: it reads /proc/self/fd and /proc/self/net/tcp).
#if os(Linux)
    import Foundation
    import TestTurns
    import Testing

    /// The in-process transport opens no socket: the probe fetches a fixture's real https URL through an
    /// `InProcessStubs` session in a process of its own and counts the process's TCP sockets before and after.
    @Suite(.takesTurns, .timeLimit(.minutes(1)))
    struct InProcessSocketTests {
        @Test func anInProcessFetch_opensNoSocket_andGetsTheFixtureByteForByte() async throws {
            let result = try await CLIRunner.run(
                [CLIRunner.packageRoot.appendingPathComponent("MockData").path], tool: CLIRunner.inProcessProbe)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasPrefix("tcp sockets before=0 after=0;"), "\(result.stdout)")
            #expect(result.stdout.contains("status=200 identical=true"), "\(result.stdout)")
        }

        /// The count sees a socket when there is one: the probe's control listens on a loopback port between counts.
        @Test func theProbe_countsAListeningSocket() async throws {
            let result = try await CLIRunner.run(
                [CLIRunner.packageRoot.appendingPathComponent("MockData").path, "--control"],
                tool: CLIRunner.inProcessProbe)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasPrefix("tcp sockets before=0 after=1;"), "\(result.stdout)")
        }
    }
#endif

import SharedTestSupport
import Spawning
import TestTurns
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `Spawn`: a child's exit status or signal, its output in an unnamed file, its process group killed, and a
/// program that cannot start named in the failure.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct SpawnTests {
    /// Waits (suspended) until `pid` has ended, then reaps it.
    static func end(_ pid: Int32) async throws -> Termination {
        try await waitUntil("process \(pid) to end") { Spawn.hasEnded(pid) }
        return Spawn.endGroup(of: pid)
    }

    @Test(arguments: [0, 3, 255])
    func aChildsExitStatus_andItsLastLines_areRead(_ status: Int32) async throws {
        let output = try Spawn.OutputFile()
        let pid = try Spawn.start(
            "/bin/sh", arguments: ["-c", "echo one; echo two; echo three >&2; exit \(status)"], environment: [:],
            stdout: .descriptor(output.descriptor), stderr: .descriptor(output.descriptor), newProcessGroup: true)
        #expect(try await Self.end(pid) == .exited(status))
        #expect(output.lastLines(2) == ["two", "three"])
        #expect(output.lastLines(9) == ["one", "two", "three"])
    }

    @Test func aGroupKilled_endsBySIGKILL_withItsChildren() async throws {
        let output = try Spawn.OutputFile()
        let pid = try Spawn.start(
            "/bin/sh", arguments: ["-c", "sleep 60 & echo started; wait"], environment: [:],
            stdout: .descriptor(output.descriptor), stderr: .discard, newProcessGroup: true)
        try await waitUntil("the child to start its own") { output.lastLines(1) == ["started"] }
        #expect(!Spawn.hasEnded(pid))
        Spawn.killGroup(of: pid)
        #expect(try await Self.end(pid) == .signalled(SIGKILL))
    }

    @Test func aProgramThatIsNotThere_isAFailureNamingIt() {
        do {
            _ = try Spawn.start(
                "/no/such/program", arguments: [], environment: [:], stdout: .discard, stderr: .discard)
            Issue.record("a program that is not there started")
        } catch {
            #expect(error.description.hasPrefix("/no/such/program: "), "\(error)")
        }
    }

    @Test func aProgram_isFoundOnThePath_whenAsked() async throws {
        let pid = try Spawn.start(
            "sh", arguments: ["-c", "exit 7"], environment: ["PATH": "/usr/bin:/bin"], stdout: .discard,
            stderr: .discard, searchPath: true, newProcessGroup: true)
        #expect(try await Self.end(pid) == .exited(7))
    }
}

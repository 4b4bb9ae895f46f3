// These tests start processes: compiled only where a test can.
#if os(macOS) || os(Linux)
    import ChildProcesses
    import Foundation
    import StubTestSupport
    import TestTurns
    import Testing

    /// Every wait is a suspended task, never holding one of the cooperative pool's threads.
    @Suite(.takesTurns, .timeLimit(.minutes(1)))
    struct ChildProcessTests {
        /// Runs `script` with `/bin/sh -c`, waits (at most 10 s) for the end and both outputs.
        private func run(
            _ script: String, environment: [String: String]? = nil, directory: String? = nil
        ) async throws -> (ended: ChildProcess.Termination?, stdout: String, stderr: String) {
            let child = try ChildProcess(
                "/bin/sh", arguments: ["-c", script], environment: environment, directory: directory)
            let ended = await child.exit(within: 60)
            let out = await child.stdout?.end(within: 60) ?? Data()
            let err = await child.stderr?.end(within: 60) ?? Data()
            return (ended, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
        }

        @Test(arguments: [(0, ChildProcess.Termination.exited(0)), (3, .exited(3)), (255, .exited(255))])
        func theExitStatus_andBothOutputs_areKeptApart(code: Int, expected: ChildProcess.Termination) async throws {
            let result = try await run("printf 'out\\n'; printf 'err\\n' >&2; exit \(code)")
            #expect(result.ended == expected)
            #expect(result.stdout == "out\n")
            #expect(result.stderr == "err\n")
        }

        @Test func theEnvironment_andTheDirectory_areTheOnesGiven() async throws {
            // `pwd -P` prints the physical path, as realpath(3) does (on macOS `resolvingSymlinksInPath()` drops the
            // `/private` of /private/var that getcwd keeps).
            let resolved = try #require(realpath(FileManager.default.temporaryDirectory.path, nil))
            defer { free(resolved) }
            let folder = String(cString: resolved)
            let result = try await run(
                "printf '%s %s' \"$GREETING\" \"$(pwd -P)\"", environment: ["GREETING": "hello"], directory: folder)
            #expect(result.stdout == "hello \(folder)")
            #expect(try await run("printf '%s' \"${HOME-unset}\"", environment: [:]).stdout == "unset")
        }

        @Test func aSignal_endsTheChild_andIsReportedAsSuch() async throws {
            let child = try ChildProcess("/bin/sh", arguments: ["-c", "printf ready; exec sleep 30"])
            #expect(child.termination == nil)
            _ = try #require(await waitForOutput(child), "the child runs")
            #expect(child.stdout?.hasEnded == false, "the pipe stays open while the child runs")
            child.signal(SIGTERM)
            let ended = await child.exit(within: 60)
            let output = await child.stdout?.end(within: 60)
            #expect(ended == .signalled(SIGTERM))
            #expect(child.termination?.status == SIGTERM)
            #expect(output.map { String(decoding: $0, as: UTF8.self) } == "ready")
            child.signal(SIGTERM)  // after the end: nothing to signal, no other process reached
        }

        /// The child runs with an empty signal mask and SIGTERM at its default even when the starting thread blocks
        /// it (as test runners' threads may).
        @Test func aChildStartedFromAThreadThatBlocksSIGTERM_stillEndsOnIt() async throws {
            let started = try await blocking {
                var blocked = sigset_t()
                sigemptyset(&blocked)
                sigaddset(&blocked, SIGTERM)
                pthread_sigmask(SIG_BLOCK, &blocked, nil)
                return try ChildProcess(
                    "/bin/sh", arguments: ["-c", "exec sleep 30"], stdout: .discard, stderr: .discard)
            }
            started.signal(SIGTERM)
            #expect(await started.exit(within: 60) == .signalled(SIGTERM))
        }

        @Test func kill_endsAChildThatIgnoresSIGTERM() async throws {
            let child = try ChildProcess(
                "/bin/sh", arguments: ["-c", "trap '' TERM; printf ready; while :; do sleep 1; done"])
            _ = try #require(await waitForOutput(child))
            child.signal(SIGTERM)
            // A window: still running 0.3 s after SIGTERM is what "ignored" means here (a busy machine only makes
            // the child slower to end, never faster).
            let afterTERM = await child.exit(within: 0.3)
            let afterKILL = await child.kill()
            #expect(afterTERM == nil, "SIGTERM is ignored")
            #expect(afterKILL == .signalled(SIGKILL))
        }

        @Test func aProgramThatCannotStart_isAnErrorNamingIt() {
            #expect {
                try ChildProcess("/nonexistent/tool")
            } throws: { error in
                "\(error)" == "/nonexistent/tool: posix_spawn: No such file or directory"
            }
        }

        /// The child holds only its three standard descriptors, however many this process has open; with more open
        /// than glibc's directory buffer lists at once (about 1,365), Foundation's `Process.run()` on Linux could
        /// crash. A quarter of the soft limit at most, so that tests running beside it still have descriptors.
        @Test func theChild_inheritsNoneOfThisProcesssDescriptors_evenWithThousandsOpen() async throws {
            let count = min(1_500, sysconf(Int32(_SC_OPEN_MAX)) / 4)
            let held = (0..<count).map { _ in dup(0) }.filter { $0 >= 0 }
            defer { for fd in held { close(fd) } }
            #expect(held.allSatisfy { fcntl($0, F_GETFD) & FD_CLOEXEC == 0 }, "inheritable")
            // `ls` lists the descriptors it inherited from the shell and those it opens itself: GNU ls one (the
            // folder, 3), macOS's two (fts keeps "." open on 3 and reads the folder on 4).
            let result = try await run("exec ls /dev/fd", environment: ["PATH": "/usr/bin:/bin"])
            #expect(result.ended == .exited(0))
            let listed = result.stdout.split(whereSeparator: \.isWhitespace).compactMap { Int32($0) }
            #expect(Set(listed).isSuperset(of: [0, 1, 2]), "\(result.stdout) \(result.stderr)")
            #expect(listed.allSatisfy { $0 <= 4 }, "no descriptor of this process: \(listed)")
        }

        @Test func aChildItsOwnerLetsGo_isKilled() async throws {
            var child: ChildProcess? = try ChildProcess(
                "/bin/sh", arguments: ["-c", "exec sleep 30"], stdout: .discard, stderr: .discard)
            let pid = child!.pid
            child = nil
            // kill(pid, 0) fails once the child is gone and reaped.
            let deadline = ContinuousClock.now + .seconds(60)
            while kill(pid, 0) == 0 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
            #expect(kill(pid, 0) != 0, "pid \(pid) is gone")
        }

        /// What the child printed, once it printed something (a minute at most, which only ends a hang).
        private func waitForOutput(_ child: ChildProcess) async -> Data? {
            try? await waitUntil("the child to print", every: .milliseconds(5)) {
                child.stdout?.received.isEmpty == false
            }
            return child.stdout?.received.isEmpty == false ? child.stdout?.received : nil
        }
    }
#endif

// Exit tests: Swift 6.2's compiler and later, on macOS and Linux (not iOS, tvOS, watchOS or
// visionOS, where a test cannot start a process).
#if compiler(>=6.2) && (os(macOS) || os(Linux))
    import Foundation
    public import StubServer
    public import StubServerInProcess
    public import Testing

    extension StubMutant {
        /// How the app's code ended for a mutant run in a child process by `exitAfter(within:_:)`.
        public enum Outcome: String, Sendable, Codable, CaseIterable {
            /// The code returned.
            case passed
            /// The code threw.
            case failed
            /// The child process ended by a signal: a trap (a force-unwrapped nil, an index out of range, a failed
            /// `as!`) or a crash.
            case crashed
            /// The code had not ended when its time ran out.
            case hung

            /// What an exit test's result says: exit status 0 passed, `StubMutant.hungExitStatus` hung, any other
            /// status failed, a signal (or an ending Swift Testing does not know yet) crashed.
            public init(_ result: ExitTest.Result) {
                switch result.exitStatus {
                case .exitCode(0): self = .passed
                case .exitCode(StubMutant.hungExitStatus): self = .hung
                case .exitCode: self = .failed
                case .signal: self = .crashed
                @unknown default: self = .crashed
                }
            }
        }

        /// The exit status of a run that outlived its time, as `timeout(1)`'s.
        public static let hungExitStatus: CInt = 124

        /// Runs `body` with a fresh in-process server answering this mutant, then ends the process: status 0 when
        /// `body` returned, 1 when it threw (its error on standard error), `hungExitStatus` when it had not ended
        /// within `limit`. Call it as the body of an exit test that captures the mutant, so that a crash ends the
        /// child process only and is reported as this mutant's (capturing needs Swift 6.3's compiler):
        ///
        /// ```swift
        /// @Test(arguments: try StubMutant.all(of: "top-albums"))
        /// func theAlbumList_neverCrashes(_ mutant: StubMutant) async {
        ///     await #expect(processExitsWith: .success) { [mutant] in
        ///         await mutant.exitAfter(within: .seconds(5)) { @MainActor stubs in
        ///             // ... load the screen through stubs.sessionConfiguration
        ///         }
        ///     }
        /// }
        /// ```
        public func exitAfter(
            within limit: Duration = .seconds(5), _ body: @escaping @Sendable (InProcessStubs) async throws -> Void
        ) async -> Never {
            await exit(after: limit) { try await withStubs { stubs in try await body(stubs) } }
        }

        /// `exitAfter(within:_:)` with a server on a loopback port (`withServer(_:)`): for a WebSocket's mutants,
        /// which only a socket can answer.
        public func exitAfterServing(
            within limit: Duration = .seconds(5), _ body: @escaping @Sendable (StubServer) async throws -> Void
        ) async -> Never {
            await exit(after: limit) { try await withServer { server in try await body(server) } }
        }

        /// Runs `run`, then ends the process: 0 when it returned, 1 when it threw, `hungExitStatus` when it had not
        /// ended within `limit`.
        private func exit(after limit: Duration, _ run: @escaping @Sendable () async throws -> Void) async -> Never {
            let seconds = Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18
            // A thread of its own, so that a body that keeps every task busy cannot hold the verdict back.
            Thread.detachNewThread {
                Thread.sleep(forTimeInterval: seconds)
                FileHandle.standardError.write(Data("\(id): still running after \(limit)\n".utf8))
                _exit(StubMutant.hungExitStatus)
            }
            do {
                try await run()
                Foundation.exit(0)
            } catch {
                FileHandle.standardError.write(Data("\(id): \(error)\n".utf8))
                Foundation.exit(1)
            }
        }
    }
#endif

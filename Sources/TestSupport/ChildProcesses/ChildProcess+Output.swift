#if os(macOS) || os(Linux)
    package import Foundation
    import Locking
    import SharedTestSupport

    extension ChildProcess {
        /// One output pipe of a child, read to its end on a thread of its own (so a full pipe never blocks the
        /// child), and closed there.
        package final class Output: Sendable {
            private let state = Lock(State())
            private let ended = Occurrence()

            private struct State {
                var data = Data()
                var hasEnded = false
            }

            init(reading fd: Int32) {
                Thread { [self] in
                    // read(2) again after EINTR: a signal (SIGCHLD when another child ends) must not end the
                    // stream early.
                    var chunk = [UInt8](repeating: 0, count: 65_536)
                    while true {
                        let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                        if count < 0 && errno == EINTR { continue }
                        guard count > 0 else { break }
                        self.state.withLock { $0.data.append(contentsOf: chunk[..<count]) }
                    }
                    close(fd)
                    self.state.withLock { $0.hasEnded = true }
                    self.ended.happen()
                }
                .start()
            }

            /// What arrived so far.
            package var received: Data { state.withLock { $0.data } }

            /// Whether the child closed the pipe (it ended, or closed its end).
            package var hasEnded: Bool { state.withLock { $0.hasEnded } }

            /// Everything, once the stream ended within `seconds`; nil if it is still open then (or the task was
            /// cancelled). The task waits suspended, holding no thread.
            package func end(within seconds: Double) async -> Data? {
                await ended.wait(within: seconds) ? received : nil
            }
        }
    }
#endif

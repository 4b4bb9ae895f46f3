// These tests run the built `stub-server` as a process: compiled only where a test can start one.
#if os(macOS) || os(Linux)
    import Foundation
    import StubTestSupport
    import Locking
    import TestTurns
    import Testing

    @testable import CLISupport

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// `Output.write` against a real pipe: a reader that is slow or gone must neither lose what it does read nor
    /// hold the server.
    @Suite(.takesTurns, .timeLimit(.minutes(1)))
    struct OutputTests {
        private static func pipeEnds(nonBlockingWrite: Bool) throws -> (read: Int32, write: Int32) {
            var ends: [Int32] = [0, 0]
            try #require(pipe(&ends) == 0)
            if nonBlockingWrite { _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK) }
            return (ends[0], ends[1])
        }

        /// Reads everything until end of file on a thread of its own, started now, reading after `delay` seconds;
        /// `received` is what it read once the writer closed its end.
        private final class LateReader: Sendable {
            private let result = Lock<[UInt8]?>(nil)

            init(_ descriptor: Int32, delay: Double) {
                Thread { [self] in
                    Thread.sleep(forTimeInterval: delay)
                    var received: [UInt8] = []
                    var buffer = [UInt8](repeating: 0, count: 65_536)
                    while true {
                        let count = read(descriptor, &buffer, buffer.count)
                        if count <= 0 { break }
                        received.append(contentsOf: buffer[..<count])
                    }
                    close(descriptor)
                    self.result.withLock { $0 = received }
                }.start()
            }

            var received: [UInt8]? { result.withLock { $0 } }
        }

        // The writes below block by design (a CLI's output): each runs on a thread of its own (`blocking`), never
        // holding one of the cooperative pool's few threads.
        @Test(arguments: [false, true])
        func aFullPipe_getsEveryByteOnceTheReaderCatchesUp(nonBlocking: Bool) async throws {
            let ends = try Self.pipeEnds(nonBlockingWrite: nonBlocking)
            // Four times a Linux pipe's 64 KB: the writer must wait for the reader, which starts 50 ms late (well within
            // the second a non-blocking writer waits for progress).
            let bytes = (0..<262_144).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            let reader = LateReader(ends.read, delay: 0.05)
            try await blocking {
                Output.write(bytes, to: ends.write)
                close(ends.write)
            }
            try await waitUntil("the reader to finish") { reader.received != nil }
            let received = reader.received ?? []
            #expect(received.count == bytes.count)
            #expect(received.elementsEqual(bytes), "every byte, in order")
        }

        @Test func aReaderThatNeverReads_costsTheWriterAboutASecond_thenTheRestIsDropped() async throws {
            let ends = try Self.pipeEnds(nonBlockingWrite: true)
            defer {
                close(ends.read)
                close(ends.write)
            }
            let waited = try await blocking {
                let started = ContinuousClock.now
                Output.write([UInt8](repeating: 0x61, count: 262_144), to: ends.write)
                return ContinuousClock.now - started
            }
            #expect(waited >= .milliseconds(900) && waited < .seconds(10), "waited \(waited)")
        }

        @Test func aReaderThatHasGone_endsTheWriteQuietly() throws {
            let ends = try Self.pipeEnds(nonBlockingWrite: false)
            close(ends.read)
            defer { close(ends.write) }
            // EPIPE, not SIGPIPE: the test process ignores SIGPIPE the way the CLI does.
            signal(SIGPIPE, SIG_IGN)
            Output.write(Array("line\n".utf8), to: ends.write)
        }
    }
#endif

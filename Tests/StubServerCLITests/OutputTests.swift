// These tests run the built `stub-server` as a process: compiled only where a test can start one.
#if os(macOS) || os(Linux)
    import Foundation
    import RawHTTPClient
    import Locking
    import Testing

    @testable import CLISupport

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// `Output.write` against a real pipe: a reader that is slow or gone must neither lose what it does read nor
    /// hold the server.
    struct OutputTests {
        private static func pipeEnds(nonBlockingWrite: Bool) throws -> (read: Int32, write: Int32) {
            var ends: [Int32] = [0, 0]
            try #require(pipe(&ends) == 0)
            if nonBlockingWrite { _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK) }
            return (ends[0], ends[1])
        }

        /// Reads everything until end of file on a thread of its own (not the cooperative pool, which the writer may
        /// be blocking), starting after `delay` seconds; `wait` gives what it read, or nil after 10 s.
        private final class SlowReader: Sendable {
            private let result = Lock<[UInt8]?>(nil)
            private let done = DispatchSemaphore(value: 0)

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
                    self.done.signal()
                }.start()
            }

            func wait() -> [UInt8]? {
                guard done.wait(timeout: .now() + 10) == .success else { return nil }
                return result.withLock { $0 }
            }
        }

        // The writes and waits below block: each runs on a thread of its own (`blocking`), never holding one of the
        // cooperative pool's few threads.
        @Test(arguments: [false, true])
        func aFullPipe_getsEveryByteOnceTheReaderCatchesUp(nonBlocking: Bool) async throws {
            let ends = try Self.pipeEnds(nonBlockingWrite: nonBlocking)
            // Four times a Linux pipe's 64 KB: the writer must wait for the reader, which starts 50 ms late (well within
            // the second a non-blocking writer waits for progress).
            let bytes = (0..<262_144).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            let reader = SlowReader(ends.read, delay: 0.05)
            let written = try await blocking {
                Output.write(bytes, to: ends.write)
                close(ends.write)
                return reader.wait()
            }
            let received = try #require(written, "the reader did not finish within 10 s")
            #expect(received.count == bytes.count)
            #expect(received == bytes)
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

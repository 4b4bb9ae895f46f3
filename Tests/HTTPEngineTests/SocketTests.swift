import StubTestSupport
import TestTurns
import Testing

@testable import HTTPEngine

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct SocketTests {
    @Test func listen_onAnUnknownHost_namesTheHostAndTheReason() {
        #expect {
            try Socket.listen(host: "no-such-host.invalid", port: 0)
        } throws: { error in
            guard let error = error as? SocketError else { return false }
            return error.call == "getaddrinfo" && error.description.hasPrefix("getaddrinfo no-such-host.invalid: ")
        }
    }

    @Test func listen_onABusyPort_failsToBindAndSaysWhere() throws {
        let first = try Socket.listen(host: "127.0.0.1", port: 0)
        defer { first.close() }
        let port = try first.localPort()
        #expect {
            try Socket.listen(host: "127.0.0.1", port: port)
        } throws: { error in
            guard let error = error as? SocketError else { return false }
            return error.call == "bind" && error.code == EADDRINUSE && error.description.contains("127.0.0.1:\(port)")
        }
    }

    @Test func listen_onIPv6Loopback_reportsItsPort() throws {
        guard let listener = try? Socket.listen(host: "::1", port: 0) else { return }  // no IPv6 on this host
        defer { listener.close() }
        #expect(try listener.localPort() > 0)
    }

    @Test func accept_withNothingPending_returnsNil() throws {
        let listener = try Socket.listen(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        #expect(listener.accept() == .none)
    }

    /// A test process that starts a child while its servers serve must not lend it their descriptors.
    @Test func theListenerAndEachConnection_areNotInheritedByChildProcesses() async throws {
        let listener = try Socket.listen(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        let client = try await RawHTTPClient(port: Int(try listener.localPort()))
        var accepted: Socket?
        try await waitUntil("the connection to arrive") {
            if case .connection(let connection) = listener.accept() { accepted = connection }
            return accepted != nil
        }
        let connection = try #require(accepted)
        defer { connection.close() }
        withExtendedLifetime(client) {}
        let waker = try Waker()
        defer { waker.close() }
        for fd in [listener.fd, connection.fd, waker.fd] {
            #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0, "descriptor \(fd)")
        }
    }
}

@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct FileBodyTests {
    @Test func bodies_areEqualByTheirBytes() throws {
        let bytes = Array("large enough".utf8)
        #if os(Linux)
            let one = try #require(FileBody(bytes))
            #expect(one == one)
            #expect(one == FileBody(bytes))
            #expect(one != FileBody(bytes + [0]))
        #else
            #expect(FileBody(bytes) == nil, "memory files are Linux's")
        #endif
    }

    @Test func aFileSendfileCannotRead_isSentFromItsBytes() throws {
        var pipeEnds: [Int32] = [0, 0]
        try #require(pipe(&pipeEnds) == 0)
        close(pipeEnds[1])
        let bytes = (0..<5_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let file = FileBody(bytes: bytes, adopting: pipeEnds[0])  // sendfile(2) from a pipe: EINVAL
        var ends: [Int32] = [0, 0]
        #if canImport(Glibc)
            try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        #else
            try #require(socketpair(AF_UNIX, SOCK_STREAM, 0, &ends) == 0)
        #endif
        let socket = Socket(fd: ends[0])
        defer {
            socket.close()
            close(ends[1])
        }
        let written = try socket.send(file, from: 1_000)
        #expect(written == 4_000)
        var received = [UInt8](repeating: 0, count: 4_000)
        #expect(read(ends[1], &received, 4_000) == 4_000)  // blocking-ok: sent above, already buffered
        #expect(received == Array(bytes[1_000...]))
    }
}

@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct OpenFileLimitTests {
    @Test(
        arguments: [
            (nil, 1 << 20), (1, 1), (4, 3), (256, 192), (1_024, 768), (20_000, 19_744), (1 << 30, 1 << 20),
        ] as [(Int?, Int)])
    func theConnectionLimit_leavesAMarginForFiles(fileLimit: Int?, connections: Int) {
        #expect(OpenFileLimit.connections(underFileLimit: fileLimit) == connections)
    }

    @Test func raisingToTheHardLimit_neverLowersTheSoftOne() {
        let before = OpenFileLimit.current()
        let raised = OpenFileLimit.raiseToHardLimit()
        if let before, let after = raised.after { #expect(after >= before) }
        #expect(OpenFileLimit.current() == raised.after)
    }
}

/// The pollers the engine can run on here: the one the loop uses and the portable fallback.
enum PollerKind: String, CaseIterable, CustomTestStringConvertible {
    case system, poll

    var testDescription: String { rawValue }

    func make(batch: Int = 256) -> any Poller {
        switch self {
        case .poll: PollPoller()
        #if os(Linux)
            case .system: EpollPoller(batch: batch)
        #else
            case .system: PollPoller()
        #endif
        }
    }
}

@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct PollerTests {
    @Test(arguments: PollerKind.allCases)
    func registrations_areKeptAndChanged(kind: PollerKind) throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { for end in ends { close(end) } }
        var poller = kind.make()
        defer { poller.close() }
        poller.add(ends[0], .read)
        poller.add(ends[1], [])
        #expect(poller.wait(timeoutMs: 0).isEmpty)
        poller.change(ends[1], .write)
        #expect(poller.wait(timeoutMs: 0) == [Readiness(fd: ends[1], readable: false, writable: true, hangUp: false)])
        var byte: UInt8 = 1
        #expect(write(ends[1], &byte, 1) == 1)
        poller.remove(ends[1])
        #expect(poller.wait(timeoutMs: 0) == [Readiness(fd: ends[0], readable: true, writable: false, hangUp: false)])
        poller.remove(ends[1])
        poller.change(ends[1], .read)
        poller.remove(ends[0])
        #expect(poller.wait(timeoutMs: 0).isEmpty)
    }

    @Test(arguments: PollerKind.allCases)
    func readAndWriteOnOneDescriptor_comeAsOneReadiness(kind: PollerKind) throws {
        let (mine, theirs) = try socketPair()
        defer { close(mine) }
        var poller = kind.make()
        defer { poller.close() }
        poller.add(mine, [.read, .write])
        var byte: UInt8 = 7
        #expect(write(theirs, &byte, 1) == 1)
        #expect(poller.wait(timeoutMs: 1_000) == [Readiness(fd: mine, readable: true, writable: true, hangUp: false)])
        close(theirs)
        poller.change(mine, .read)
        let closed = poller.wait(timeoutMs: 1_000)
        #expect(closed.count == 1)
        #expect(closed.first?.fd == mine)
        #expect(closed.first?.readable == true)
        #expect(closed.first?.writable == false)
    }

    @Test(arguments: PollerKind.allCases)
    func aWait_returnsOnlyTheReadyOnes_andTheRestOfABatchComesNext(kind: PollerKind) throws {
        var pairs: [(Int32, Int32)] = []
        defer {
            for (mine, theirs) in pairs {
                close(mine)
                close(theirs)
            }
        }
        var poller = kind.make(batch: 4)
        defer { poller.close() }
        for _ in 0..<40 {
            let pair = try socketPair()
            pairs.append(pair)
            poller.add(pair.0, .read)
        }
        let chosen = [3, 17, 18, 25, 31, 39]
        for index in chosen {
            var byte: UInt8 = 1
            #expect(write(pairs[index].1, &byte, 1) == 1)
        }
        var seen: Set<Int32> = []
        for _ in 0..<3 {
            for event in poller.wait(timeoutMs: 1_000) {
                #expect(event.readable)
                seen.insert(event.fd)
                var byte: UInt8 = 0
                #expect(read(event.fd, &byte, 1) == 1)  // blocking-ok: the poller said it is readable
            }
            if seen.count == chosen.count { break }
        }
        #expect(seen == Set(chosen.map { pairs[$0].0 }))
        #expect(poller.wait(timeoutMs: 0).isEmpty)
    }
}

/// A connected pair of Unix stream sockets, both blocking; the caller closes them.
func socketPair() throws -> (Int32, Int32) {
    var ends: [Int32] = [0, 0]
    #if canImport(Glibc)
        let kind = Int32(SOCK_STREAM.rawValue)
    #else
        let kind = SOCK_STREAM
    #endif
    try #require(socketpair(AF_UNIX, kind, 0, &ends) == 0)
    return (ends[0], ends[1])
}

/// What the server says when accepting stops for want of descriptors: the errno by name, and what to do.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct AcceptPauseTests {
    @Test(arguments: [
        (EMFILE, "EMFILE"), (ENFILE, "ENFILE"), (ENOBUFS, "ENOBUFS"), (ENOMEM, "ENOMEM"), (EINVAL, "errno"),
    ])
    func description_namesTheErrorAndTheRemedy(code: Int32, name: String) {
        let text = AcceptPause(code: code, openConnections: 37).description
        #expect(text.hasPrefix("out of file descriptors (\(name)"), "\(text)")
        #expect(text.contains(String(cString: strerror(code))))
        #expect(
            text.hasSuffix(
                "with 37 connections open; new connections wait until one closes (raise the limit with ulimit -n, or lower --max-connections)"
            ))
    }
}

import Testing

@testable import HTTPEngine

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
        #expect(listener.accept() == nil)
    }
}

struct PollPollerTests {
    @Test func registrations_areKeptAndChangedInPlace() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { for end in ends { close(end) } }
        var poller = PollPoller()
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
}

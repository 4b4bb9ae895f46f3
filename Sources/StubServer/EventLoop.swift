#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The server's one I/O thread: waits in `poll` on the listener, every connection and the wake pipe.
final class EventLoop {
    private unowned let server: StubServer
    private let listener: Socket
    private var connections: [Int32: Connection] = [:]
    private var pollList: [pollfd] = []
    private let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 16)

    init(server: StubServer, listener: Socket) {
        self.server = server
        self.listener = listener
    }

    deinit {
        scratch.deallocate()
    }

    /// Serves until the server's wake pipe fires, then closes every connection and the listener.
    func run() {
        while true {
            let now = monotonicMilliseconds()
            let timeout = nextTimeout(now: now)
            pollList.removeAll(keepingCapacity: true)
            pollList.append(pollfd(fd: server.wake.fd, events: Int16(POLLIN), revents: 0))
            pollList.append(pollfd(fd: listener.fd, events: Int16(POLLIN), revents: 0))
            for (fd, connection) in connections {
                var events: Int32 = 0
                if connection.wantsRead { events |= Int32(POLLIN) }
                if connection.wantsWrite { events |= Int32(POLLOUT) }
                pollList.append(pollfd(fd: fd, events: Int16(events), revents: 0))
            }
            let ready = poll(&pollList, nfds_t(pollList.count), timeout)
            if ready < 0 && errno != EINTR { break }
            if pollList[0].revents != 0 { break }
            let after = monotonicMilliseconds()
            if pollList[1].revents != 0 { acceptAll(now: after) }
            for entry in pollList.dropFirst(2) where entry.revents != 0 {
                guard let connection = connections[entry.fd] else { continue }
                if entry.revents & Int16(POLLOUT) != 0 { connection.writable(now: after) }
                if entry.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0, !connection.isClosed {
                    connection.readable(scratch: scratch, now: after)
                }
                if connection.isClosed { connections[entry.fd] = nil }
            }
            for (fd, connection) in connections {
                connection.tick(now: after)
                if connection.isClosed { connections[fd] = nil }
            }
        }
        for connection in connections.values { connection.close() }
        connections = [:]
        listener.close()
    }

    /// Milliseconds until the earliest connection timer, -1 for none.
    private func nextTimeout(now: Double) -> Int32 {
        let earliest = connections.values.lazy.map(\.deadline).min() ?? .infinity
        guard earliest.isFinite else { return -1 }
        return Int32(max(0, min(earliest - now, 3_600_000)).rounded(.up))
    }

    private func acceptAll(now: Double) {
        while let socket = listener.accept() {
            guard connections.count < server.configuration.maxConnections else {
                refuse(socket)
                continue
            }
            connections[socket.fd] = Connection(socket: socket, server: server, now: now)
        }
    }

    private func refuse(_ socket: Socket) {
        let limit = server.configuration.maxConnections
        let error = HTTPError(.serviceUnavailable, "too many open connections (limit \(limit)); try again later")
        var date = HTTPDate()
        var output = OutputQueue()
        output.append(HTTPResponse.error(error).serialized(date: date.now(), keepAlive: false))
        try? output.flush(to: socket)
        socket.close()
    }
}

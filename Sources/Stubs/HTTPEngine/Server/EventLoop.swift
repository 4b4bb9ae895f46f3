/// The server's one I/O thread: waits on the listener, the channel and every connection, and fires timers.

import HTTPMessages

final class EventLoop {
    private let listener: Socket
    private let limits: HTTPServer.Limits
    private let responder: any HTTPResponder
    private let channel: LoopChannel
    private let onAcceptPause: (@Sendable (AcceptPause) -> Void)?
    /// Called for each connection accepted and kept, before its first byte is read.
    private let onAccept: (@Sendable () -> Void)?
    /// Each accepted socket's TLS, when the listener speaks HTTPS (a context that failed to load: none served).
    private let tls: Result<any TLSServerContext, TLSError>?
    private var poller = SystemPoller()
    private var timers = TimerQueue()
    private var connections: [Int32: Connection] = [:]
    private var nextID: UInt64 = 0
    /// While accepting is paused for want of descriptors: when to watch the listener again at the latest.
    private var acceptResumesAt: Double?
    private let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 16)

    init(
        listener: Socket, limits: HTTPServer.Limits, responder: any HTTPResponder, channel: LoopChannel,
        tls: Result<any TLSServerContext, TLSError>? = nil, onAcceptPause: (@Sendable (AcceptPause) -> Void)? = nil,
        onAccept: (@Sendable () -> Void)? = nil
    ) {
        self.tls = tls
        self.onAccept = onAccept
        self.listener = listener
        self.limits = limits
        self.responder = responder
        self.channel = channel
        self.onAcceptPause = onAcceptPause
    }

    deinit {
        scratch.deallocate()
    }

    /// Serves until a stop is requested, then closes every connection and the listener.
    func run() {
        poller.add(channel.waker.fd, .read)
        poller.add(listener.fd, .read)
        while !channel.stopRequested {
            let ready = poller.wait(timeoutMs: timeout(now: monotonicMilliseconds()))
            let now = monotonicMilliseconds()
            for event in ready {
                if event.fd == channel.waker.fd {
                    deliverReplies(now: now)
                } else if event.fd == listener.fd {
                    if acceptResumesAt == nil { acceptAll(now: now) }
                } else if let connection = connections[event.fd] {
                    handle(event, on: connection, now: now)
                }
            }
            fireTimers(now: now)
            if let resumesAt = acceptResumesAt, resumesAt <= now { resumeAccepting() }
        }
        let now = monotonicMilliseconds()
        for connection in connections.values {
            connection.close(now: now)
        }
        connections = [:]
        channel.openConnections.store(0, ordering: .relaxed)
        listener.close()
        poller.close()
    }

    private func handle(_ event: Readiness, on connection: Connection, now: Double) {
        if event.writable { connection.writable(now: now) }
        if !connection.isClosed {
            if event.readable || (event.hangUp && connection.registered.contains(.read)) {
                connection.readable(scratch: scratch, now: now)
            } else if event.hangUp {
                connection.hungUp(now: now)
            }
        }
        update(connection, now: now)
    }

    /// Brings the poller registration and the timer of `connection` up to date, or forgets it once closed.
    private func update(_ connection: Connection, now: Double) {
        let fd = connection.socket.fd
        // TLS may hold decrypted input the socket will not announce again.
        while connection.holdsInput, !connection.isClosed {
            connection.readable(scratch: scratch, now: now)
        }
        guard !connection.isClosed else {
            poller.remove(fd)
            connections[fd] = nil
            channel.openConnections.store(connections.count, ordering: .relaxed)
            if acceptResumesAt != nil { resumeAccepting() }  // its descriptor is free again
            return
        }
        let interest = connection.interest
        if interest != connection.registered {
            poller.change(fd, interest)
            connection.registered = interest
        }
        if let deadline = connection.deadline, connection.armedDeadline.map({ deadline < $0 }) ?? true {
            connection.armedDeadline = deadline
            timers.insert(TimerQueue.Entry(deadline: deadline, fd: fd, connection: connection.id))
        }
    }

    /// Fires every due timer. An entry whose connection moved its deadline later re-arms at the new one.
    private func fireTimers(now: Double) {
        while let entry = timers.popDue(now: now) {
            guard let connection = connections[entry.fd], connection.id == entry.connection,
                connection.armedDeadline == entry.deadline
            else { continue }
            connection.armedDeadline = nil
            if let deadline = connection.deadline, deadline <= now {
                connection.timerFired(now: now)
            }
            update(connection, now: now)
        }
    }

    /// Milliseconds until the earliest timer (or the listener's rest ends), -1 for none.
    private func timeout(now: Double) -> Int32 {
        // Runs on every turn of the loop: no array for two optionals.
        var next = timers.next
        if let resume = acceptResumesAt { next = min(next ?? resume, resume) }
        guard let next else { return -1 }
        return Int32(max(0, min(next - now, 3_600_000)).rounded(.up))
    }

    private func deliverReplies(now: Double) {
        for posted in channel.take() {
            switch posted {
            case .reply(let delivery):
                guard let connection = connections[delivery.fd], connection.id == delivery.connection else { continue }
                connection.deliver(delivery.reply, forRequest: delivery.request, now: now)
                update(connection, now: now)
            case .socket(let fd, let id, let outputs):
                guard let connection = connections[fd], connection.id == id else { continue }
                connection.webSocketOutputs(outputs, now: now)
                update(connection, now: now)
            }
        }
    }

    private func acceptAll(now: Double) {
        while true {
            switch listener.accept() {
            case .connection(let socket):
                guard connections.count < limits.maxConnections else {
                    refuse(socket)
                    continue
                }
                var transport = ConnectionTransport.plain(socket)
                if let tls {
                    guard let session = try? tls.get().session(on: socket) else {
                        socket.close()
                        continue
                    }
                    transport = .tls(session)
                }
                nextID += 1
                let connection = Connection(
                    transport: transport, id: nextID, limits: limits, responder: responder, channel: channel, now: now)
                connections[socket.fd] = connection
                connection.registered = .read
                poller.add(socket.fd, .read)
                channel.openConnections.store(connections.count, ordering: .relaxed)
                onAccept?()
                update(connection, now: now)
            case .none:
                return
            case .outOfDescriptors(let code):
                pauseAccepting(code: code, now: now)
                return
            }
        }
    }

    /// Stops watching the listener until a connection closes or `AcceptPause.retryMs` passes (see `AcceptPause`).
    private func pauseAccepting(code: Int32, now: Double) {
        poller.remove(listener.fd)
        acceptResumesAt = now + AcceptPause.retryMs
        channel.acceptPauses.add(1, ordering: .relaxed)
        onAcceptPause?(AcceptPause(code: code, openConnections: connections.count))
    }

    private func resumeAccepting() {
        acceptResumesAt = nil
        poller.add(listener.fd, .read)
    }

    private func refuse(_ socket: Socket) {
        // Over TLS the answer would need a handshake first: the client sees the connection close.
        guard tls == nil else { return socket.close() }
        let limit = limits.maxConnections
        let error = HTTPError(.serviceUnavailable, "too many open connections (limit \(limit)); try again later")
        var date = HTTPDate()
        var output = OutputQueue()
        output.append(Response.error(error).serialized(date: date.now(), keepAlive: false))
        _ = try? output.flush(to: .plain(socket))
        socket.close()
    }
}

import Locking

/// An HTTP/1.1 server on one I/O thread: it listens, decodes requests, asks its responder, and writes replies.
///
/// It knows nothing of what it serves: limits come in as a value, requests go out to an `HTTPResponder`.
package final class HTTPServer: Sendable {
    /// What a server accepts and how long it waits. Each field is documented once, where users set it: on
    /// `StubServer.Configuration`, whose flat fields of the same names fill this value.
    package struct Limits: Sendable {
        package var maxHeaderBytes: Int
        package var maxBodyBytes: Int
        package var idleTimeout: Duration
        package var headerTimeout: Duration
        package var maxConnections: Int

        package init(
            maxHeaderBytes: Int = 16_384, maxBodyBytes: Int = 1 << 20, idleTimeout: Duration = .seconds(30),
            headerTimeout: Duration = .seconds(10),
            maxConnections: Int = OpenFileLimit.connections(underFileLimit: OpenFileLimit.current())
        ) {
            self.maxHeaderBytes = maxHeaderBytes
            self.maxBodyBytes = maxBodyBytes
            self.idleTimeout = idleTimeout
            self.headerTimeout = headerTimeout
            self.maxConnections = maxConnections
        }
    }

    /// The port listened on (the real one when 0 was asked for).
    package let port: Int
    private let listener: Socket
    /// What the server accepts and how long it waits.
    package let limits: Limits
    private let channel: LoopChannel
    /// What the listener presents when it speaks HTTPS; nil for plain HTTP.
    package let tls: TLSIdentity?
    private let lifecycle = Lock(Lifecycle())

    /// Binds `host:port` (port 0: an ephemeral port); serving starts with `start(responder:)`. With `tls` (which
    /// `TLSIdentity.validate()` has accepted), every connection speaks HTTPS with that identity.
    /// - Throws: `SocketError` when the address cannot be bound.
    package init(host: String, port: UInt16, limits: Limits, tls: TLSIdentity? = nil) throws(SocketError) {
        self.tls = tls
        listener = try Socket.listen(host: host, port: port)
        do {
            self.port = Int(try listener.localPort())
            channel = try LoopChannel()
        } catch {
            listener.close()
            throw error
        }
        self.limits = limits
    }

    /// A server let go before it started (its owner failed to start after binding) gives its port back. Once
    /// started, the I/O thread holds the server and closes the listener itself.
    deinit {
        if !lifecycle.withLock({ $0.started }) { listener.close() }
    }

    /// Open client connections.
    package var openConnections: Int { channel.openConnections.load(ordering: .relaxed) }

    /// Connections closed because their client took none of its pending output for the idle timeout.
    package var stalledConnections: Int { channel.stalledConnections.load(ordering: .relaxed) }

    /// Times the server stopped accepting because the process had no descriptor to spare (`AcceptPause`).
    package var acceptPauses: Int { channel.acceptPauses.load(ordering: .relaxed) }

    /// Whether the I/O thread has finished: the listener and every connection are closed.
    package var hasStopped: Bool { lifecycle.withLock { $0.finished } }

    /// Starts the I/O thread, which answers every request through `responder` until `stop()`.
    /// - Parameters:
    ///   - onAcceptPause: called on the I/O thread each time accepting stops for want of descriptors.
    ///   - onAccept: called on the I/O thread for each connection accepted, before its first byte is read.
    package func start(
        responder: some HTTPResponder, onAcceptPause: (@Sendable (AcceptPause) -> Void)? = nil,
        onAccept: (@Sendable () -> Void)? = nil
    ) {
        let (listener, limits, channel, identity) = (listener, limits, channel, tls)
        lifecycle.withLock { $0.started = true }
        LoopThread.start { [self] in
            // Made on the I/O thread, which alone uses it; `validate()` loaded the same identity. Should it fail
            // here after all, the listener closes every connection rather than speak plain HTTP on an HTTPS port.
            let tls = identity.map { identity in Result { () throws(TLSError) in try makeTLSContext(identity) } }
            EventLoop(
                listener: listener, limits: limits, responder: responder, channel: channel, tls: tls,
                onAcceptPause: onAcceptPause, onAccept: onAccept
            ).run()
            let waiters = lifecycle.withLock { lifecycle in
                lifecycle.finished = true
                defer { lifecycle.waiters = [] }
                return lifecycle.waiters
            }
            for waiter in waiters { waiter.resume() }
        }
    }

    /// Stops accepting, closes every open connection, and returns once the I/O thread has finished.
    package func stop() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let finished = lifecycle.withLock { lifecycle in
                if lifecycle.finished { return true }
                lifecycle.waiters.append(continuation)
                return false
            }
            if finished { continuation.resume() } else { channel.requestStop() }
        }
    }

    /// Whether the I/O thread has started and finished, and who waits for it.
    private struct Lifecycle {
        var started = false
        var finished = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }
}

extension Duration {
    /// The whole milliseconds of this duration.
    package var milliseconds: Int {
        let (seconds, attoseconds) = components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }
}

import HTTPMessages

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One client connection: carries bytes between the socket, the decoder and the output queue, and carries out
/// what its `ConnectionStateMachine` decides. It keeps no phase or timing logic of its own.
final class Connection {
    /// The socket, or TLS over it.
    let transport: ConnectionTransport
    var socket: Socket { transport.socket }
    /// Tells this connection apart from an earlier one on the same file descriptor.
    let id: UInt64
    private var machine: ConnectionStateMachine
    private var decoder: RequestDecoder
    private var output = OutputQueue()
    private var date = HTTPDate()
    private let responder: any HTTPResponder
    private let channel: LoopChannel
    /// Counts requests handed to the responder, so that a late promise cannot answer a newer request.
    private var requestNumber: UInt64 = 0
    /// Interest registered with the poller.
    var registered = Interest()
    /// The deadline a timer is armed for, if any.
    var armedDeadline: Double?
    /// Once upgraded: the frame decoder and who handles the socket.
    private var frames: WebSocketDecoder?
    private var socketHandler: (any WebSocketHandler)?
    private var socketChannel: WebSocketChannel { WebSocketChannel(channel: channel, fd: socket.fd, connection: id) }
    /// Most bytes of one WebSocket message; beyond, the socket closes with 1009.
    private let maxMessageBytes: Int

    /// Most bytes queued for a client before the connection stops decoding and reading.
    static let outputLimit = 1 << 20
    /// Most bytes buffered while a reply is awaited before the connection stops reading.
    static let waitingInputLimit = 65_536

    init(
        transport: ConnectionTransport, id: UInt64, limits: HTTPServer.Limits, responder: any HTTPResponder,
        channel: LoopChannel, now: Double
    ) {
        self.transport = transport
        self.id = id
        self.responder = responder
        self.channel = channel
        machine = ConnectionStateMachine(
            timeouts: .init(
                idle: Double(limits.idleTimeout.milliseconds), header: Double(limits.headerTimeout.milliseconds)),
            now: now)
        decoder = RequestDecoder(maxHeaderBytes: limits.maxHeaderBytes, maxBodyBytes: limits.maxBodyBytes)
        maxMessageBytes = limits.maxBodyBytes
    }

    var isClosed: Bool { machine.isClosed }
    var deadline: Double? { machine.deadline }
    /// Input the transport holds that no readiness event will announce: read it before waiting.
    var holdsInput: Bool { transport.holdsInput && interest.contains(.read) }

    /// What to wait for on the socket.
    var interest: Interest {
        guard !isClosed else { return [] }
        var interest: Interest = output.isEmpty && !transport.hasPendingOutput ? [] : .write
        let roomForInput = machine.decodesRequests || decoder.bufferedByteCount < Self.waitingInputLimit
        if machine.wantsRead, output.byteCount < Self.outputLimit, roomForInput { interest.insert(.read) }
        return interest
    }

    // MARK: Events from the loop

    /// Reads what arrived and handles every complete request in it.
    func readable(scratch: UnsafeMutableRawBufferPointer, now: Double) {
        var ended = false
        do {
            while let count = try transport.read(into: scratch) {
                if count == 0 {
                    ended = true
                    break
                }
                machine.bytesArrived(now: now)
                let bytes = UnsafeRawBufferPointer(rebasing: scratch[0..<count])
                if frames != nil {
                    receiveFrames(bytes, now: now)
                } else if !machine.discardsInput {
                    decoder.append(bytes)
                }
                if count < scratch.count || !interest.contains(.read) { break }
            }
        } catch {
            return run(machine.failed(), now: now)
        }
        if ended { run(machine.peerClosed(), now: now) }
        pump(now: now)
    }

    /// The poller reported a hang-up or an error while this connection was not reading: the client is gone.
    func hungUp(now: Double) {
        run(machine.failed(), now: now)
    }

    func writable(now: Double) {
        flush(now: now)
        pump(now: now)
    }

    func timerFired(now: Double) {
        run(machine.timerFired(now: now), now: now)
        pump(now: now)
    }

    /// A reply handed over through a promise.
    func deliver(_ reply: Reply, forRequest number: UInt64, now: Double) {
        guard number == requestNumber else { return }
        run(machine.replyReady(reply, now: now), now: now)
        pump(now: now)
    }

    func close(now: Double) {
        run(machine.serverStopping(), now: now)
    }

    /// Outputs posted to this connection's WebSocket from another thread.
    func webSocketOutputs(_ outputs: [WebSocketOutput], now: Double) {
        run(machine.webSocketOutputs(outputs, now: now), now: now)
        flush(now: now)
    }

    /// Feeds the client's frames to the decoder and the state machine.
    private func receiveFrames(_ bytes: some Collection<UInt8>, now: Double) {
        // In place: a copy would share the decoder's buffer and copy it on every feed.
        guard let events = frames?.feed(bytes) else { return }
        run(machine.webSocketReceived(events, failure: frames?.failure, now: now), now: now)
    }

    // MARK: Requests

    /// Hands decoded requests to the responder while the state machine takes them and the output has room.
    private func pump(now: Double) {
        var full: Bool
        repeat {
            handOver(now: now)
            full = machine.decodesRequests && output.byteCount >= Self.outputLimit
            flush(now: now)
            // The socket may have taken the whole answer at once: then no writable event will come to resume
            // the requests still buffered in the decoder, so go on here.
        } while full && output.byteCount < Self.outputLimit && !isClosed
    }

    private func handOver(now: Double) {
        while machine.decodesRequests, output.byteCount < Self.outputLimit {
            let part: RequestDecoder.Part?
            do {
                part = try decoder.next()
            } catch {
                run(machine.decodeFailed(error, now: now), now: now)
                break
            }
            guard let part else {
                run(machine.inputExhausted(partial: decoder.hasPartialRequest, now: now), now: now)
                break
            }
            switch part {
            case .continueExpected:
                run(machine.continueExpected(now: now), now: now)
            case .request(let request):
                machine.requestDecoded(keepAlive: request.keepAlive, isHead: request.method == "HEAD", now: now)
                requestNumber &+= 1
                let promise = ReplyPromise(channel: channel, fd: socket.fd, connection: id, request: requestNumber)
                if case .now(let reply) = responder.respond(to: request, promise: promise) {
                    run(machine.replyReady(reply, now: now), now: now)
                }
            }
        }
    }

    /// Carries out the state machine's actions in order.
    private func run(_ actions: [ConnectionAction], now: Double) {
        for action in actions {
            switch action {
            case .send(let wire):
                append(wire)
            case .shutdownWrite:
                transport.shutdownWrite()
            case .resetOnClose:
                transport.setResetOnClose()
            case .close:
                output = OutputQueue()
                transport.close()
            case .writeStalled:
                channel.stalledConnections.add(1, ordering: .relaxed)
            case .finish(let report, let began):
                flush(now: now)
                report(monotonicMilliseconds() - began)
            case .streamEnded(let report, let count):
                report(count)
            case .upgrade(let handler):
                frames = WebSocketDecoder(maxMessageBytes: maxMessageBytes)
                socketHandler = handler
                let opening = handler.opened(socketChannel)
                run(machine.webSocketOutputs(opening, now: now), now: now)
                // Frames the client sent right behind its handshake.
                let early = decoder.takeBuffered()
                if !early.isEmpty { receiveFrames(early, now: now) }
            case .webSocketReceived(let message):
                guard let handler = socketHandler else { break }
                run(machine.webSocketOutputs(handler.received(message, on: socketChannel), now: now), now: now)
            case .webSocketSent(let message):
                socketHandler?.sent(message, on: socketChannel)
            case .webSocketClosed(let handler, let code, let reason):
                (handler ?? socketHandler)?.closed(socketChannel, code: code, reason: reason)
            }
        }
    }

    private func append(_ wire: ConnectionAction.Wire) {
        switch wire {
        case .continueInterim:
            output.append("HTTP/1.1 100 Continue\r\n\r\n")
        case .response(let response, let keepAlive, let withBody):
            output.append(response.head(date: date.now(), keepAlive: keepAlive))
            if withBody, response.status.allowsContent {
                if let file = response.file { output.append(file) } else { output.append(response.body) }
            }
        case .streamHead(let response, let keepAlive, let contentLength, let chunked):
            output.append(
                response.head(date: date.now(), keepAlive: keepAlive, contentLength: contentLength, chunked: chunked))
        case .piece(let bytes, let chunked):
            guard !bytes.isEmpty else { return }
            if chunked { output.append(String(bytes.count, radix: 16) + "\r\n") }
            output.append(bytes)
            if chunked { output.append("\r\n") }
        case .lastChunk:
            output.append("0\r\n\r\n")
        case .raw(let bytes):
            output.append(bytes)
        case .partial(let response, let withholding):
            let bytes = response.serialized(date: date.now(), keepAlive: false)
            output.append(Array(bytes.prefix(bytes.count - min(max(1, withholding), bytes.count))))
        case .error(let error):
            output.append(Response.error(error).serialized(date: date.now(), keepAlive: false))
        }
    }

    /// Writes what the socket takes now, and tells the state machine when everything is out.
    private func flush(now: Double) {
        guard !isClosed else { return }
        let written: Int
        // TLS records leave after the plaintext they carry was taken: they count as progress too.
        let recordsBefore = transport.tlsBytesWritten
        do {
            written = try output.flush(to: transport)
        } catch {
            return run(machine.failed(), now: now)
        }
        if output.isEmpty, !transport.hasPendingOutput, machine.outputPending {
            run(machine.outputDrained(now: now), now: now)
        } else if written > 0 || transport.tlsBytesWritten > recordsBefore {
            machine.outputProgressed(now: now)
        }
    }
}

/// Milliseconds on a clock that never jumps.
func monotonicMilliseconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) * 1000 + Double(now.tv_nsec) / 1_000_000
}

import Foundation
import Synchronization

/// An HTTP/1.1 server on loopback that answers requests from a fixture catalog.
///
/// Start one per test on port 0, point the client at `baseURL`, choose variants, read the journal, and stop it:
/// ```swift
/// let server = try StubServer.start(fixtures: mockData)
/// defer { Task { await server.stop() } }
/// ```
public final class StubServer: Sendable {
    public let configuration: Configuration
    /// The port the server listens on (the real one when 0 was asked for).
    public let port: Int
    /// `http://HOST:PORT` of the server, with a loopback host when it listens on every address.
    public let baseURL: URL

    let state: Mutex<StubState>
    let connections: Mutex<ConnectionRegistry>
    let wake: WakePipe
    private let listener: Socket

    /// Loads `fixtures` (a `MockData`-style folder) and starts serving it.
    /// - Throws: `CatalogError` for invalid fixtures, `SocketError` when the address cannot be bound.
    public static func start(fixtures: URL, configuration: Configuration = Configuration()) throws -> StubServer {
        try start(catalog: StubCatalog.load(from: fixtures), configuration: configuration)
    }

    /// Starts serving `catalog`.
    /// - Throws: `SocketError` when the address cannot be bound.
    public static func start(catalog: StubCatalog, configuration: Configuration = Configuration()) throws -> StubServer {
        let server = try StubServer(catalog: catalog, configuration: configuration)
        server.startAccepting()
        return server
    }

    private init(catalog: StubCatalog, configuration: Configuration) throws {
        signal(SIGPIPE, SIG_IGN)
        self.configuration = configuration
        listener = try Socket.listen(host: configuration.host, port: configuration.port)
        do {
            port = Int(try listener.localPort())
            wake = try WakePipe()
        } catch {
            listener.close()
            throw error
        }
        let host = configuration.host
        let urlHost =
            switch host {
            case "0.0.0.0", "": "127.0.0.1"
            case "::": "[::1]"
            default: host.contains(":") ? "[\(host)]" : host
            }
        baseURL = URL(string: "http://\(urlHost):\(port)")!
        state = Mutex(
            StubState(
                catalog: catalog, serverVariant: configuration.variant,
                journal: RequestJournal(capacity: configuration.journalCapacity)))
        connections = Mutex(ConnectionRegistry())
    }

    /// Stops accepting, closes every open connection, and returns once all of them have finished.
    public func stop() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let finished = connections.withLock { registry in
                registry.stopping = true
                for socket in registry.sockets { socket.shutdown() }
                if registry.isFinished { return true }
                registry.waiters.append(continuation)
                return false
            }
            wake.fire()
            if finished { continuation.resume() }
        }
        let closeWake = connections.withLock { registry in
            defer { registry.wakeClosed = true }
            return !registry.wakeClosed
        }
        if closeWake { wake.close() }
    }

    // MARK: Accepting connections

    private func startAccepting() {
        connections.withLock { $0.acceptLoopRunning = true }
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "stub-server accept :\(port)"
        thread.start()
    }

    private func acceptLoop() {
        while wake.wait(milliseconds: -1, or: listener) == .readable {
            guard let socket = listener.accept() else { continue }
            let admitted = connections.withLock { registry in
                guard !registry.stopping, registry.sockets.count < configuration.maxConnections else { return false }
                registry.sockets.insert(socket)
                return true
            }
            guard admitted else {
                refuse(socket)
                continue
            }
            let thread = Thread { [self] in
                Connection(socket: socket, server: self).run()
                finish(socket)
            }
            thread.start()
        }
        listener.close()
        let waiters = connections.withLock { registry in
            registry.acceptLoopRunning = false
            return registry.takeWaitersIfFinished()
        }
        for waiter in waiters { waiter.resume() }
    }

    private func refuse(_ socket: Socket) {
        let error = HTTPError(.serviceUnavailable, "too many open connections (limit \(configuration.maxConnections))")
        var date = HTTPDate()
        try? socket.write(HTTPResponse.error(error).serialized(date: date.now(), keepAlive: false))
        socket.close()
    }

    private func finish(_ socket: Socket) {
        let waiters = connections.withLock { registry in
            registry.sockets.remove(socket)
            socket.close()
            return registry.takeWaitersIfFinished()
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// The open connections of a server, and who waits for them to finish.
struct ConnectionRegistry {
    var sockets: Set<Socket> = []
    var stopping = false
    var acceptLoopRunning = false
    var wakeClosed = false
    var waiters: [CheckedContinuation<Void, Never>] = []

    var isFinished: Bool { sockets.isEmpty && !acceptLoopRunning }

    mutating func takeWaitersIfFinished() -> [CheckedContinuation<Void, Never>] {
        guard stopping, isFinished else { return [] }
        defer { waiters = [] }
        return waiters
    }
}

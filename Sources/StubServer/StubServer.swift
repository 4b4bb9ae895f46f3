import Foundation
import Synchronization

/// An HTTP/1.1 server on loopback that answers requests from a fixture catalog.
///
/// Start one per test on port 0, point the client at `baseURL`, choose variants, read the journal, and stop it
/// (its thread runs until `stop()`); `withStubServer` does the stopping:
/// ```swift
/// try await withStubServer(fixtures: mockData) { server in
///     try server.setVariant("bad", forStub: "top-albums")
///     // ... the client under test uses server.baseURL
/// }
/// ```
public final class StubServer: Sendable {
    public let configuration: Configuration
    /// The port the server listens on (the real one when 0 was asked for).
    public let port: Int
    /// `http://HOST:PORT` of the server, with a loopback host when it listens on every address.
    public let baseURL: URL

    let state: Mutex<StubState>
    let lifecycle: Mutex<Lifecycle>
    let wake: WakePipe
    private let listener: Socket

    /// Loads `fixtures` (a `MockData`-style folder) and starts serving it.
    /// - Throws: `CatalogError` for invalid fixtures, `SocketError` when the address cannot be bound.
    public static func start(fixtures: URL, configuration: Configuration = Configuration()) throws -> StubServer {
        try start(catalog: StubCatalog.load(from: fixtures), configuration: configuration)
    }

    /// Starts serving `catalog`.
    /// - Throws: `SocketError` when the address cannot be bound.
    public static func start(catalog: StubCatalog, configuration: Configuration = Configuration()) throws -> StubServer
    {
        let server = try StubServer(catalog: catalog, configuration: configuration)
        server.startLoop()
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
        lifecycle = Mutex(Lifecycle())
    }

    /// Stops accepting, closes every open connection, and returns once the server's thread has finished.
    public func stop() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let finished = lifecycle.withLock { lifecycle in
                if lifecycle.finished { return true }
                lifecycle.waiters.append(continuation)
                wake.fire()
                return false
            }
            if finished { continuation.resume() }
        }
    }

    private func startLoop() {
        let thread = Thread { [self, listener] in
            EventLoop(server: self, listener: listener).run()
            let waiters = lifecycle.withLock { lifecycle in
                lifecycle.finished = true
                wake.close()
                defer { lifecycle.waiters = [] }
                return lifecycle.waiters
            }
            for waiter in waiters { waiter.resume() }
        }
        thread.name = "stub-server :\(port)"
        thread.start()
    }
}

/// Whether the server's thread has finished, and who waits for it.
struct Lifecycle {
    var finished = false
    var waiters: [CheckedContinuation<Void, Never>] = []
}

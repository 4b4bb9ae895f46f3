import HTTPEngine
import Locking
import StubCore

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

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
    package let configuration: Configuration
    /// The port the server listens on (the real one when 0 was asked for).
    public let port: Int
    /// `http://HOST:PORT` of the server (`https://` when it serves HTTPS), with a loopback host when it listens on
    /// every address.
    public let baseURL: URL
    /// The PEM certificate of the authority that signed the server's certificate, when it serves HTTPS: the file a
    /// client trusts (`curl --cacert`).
    public let certificateAuthorityFile: URL?
    /// `http://HOST:PORT` of the plain HTTP listener beside HTTPS, when `HTTPS.plainPort` asked for one: the same
    /// stubs, choices and journal.
    public let plainBaseURL: URL?
    /// The seed of the random faults and chaos: the configured one, or the one picked at start.
    public var seed: UInt64 { runtime.seed }

    /// The catalog, the choices and the journal, which the control (`LocalStubControl`) steers.
    public let runtime: StubRuntime
    /// Large bodies in files, sent by the kernel.
    let bodyFiles = Lock(BodyFiles())
    /// Open WebSockets by stub, for tests and the admin API to send on.
    let webSocketRegistry = WebSocketRegistry()
    private let engine: HTTPServer
    /// The plain HTTP listener beside HTTPS (`HTTPS.plainPort`).
    private let plainEngine: HTTPServer?
    /// The fixtures folder's watcher, when `watchFixtures` is on.
    private let watcher = Lock<FixtureWatcher?>(nil)

    /// Loads `fixtures` (a `MockData`-style folder) and starts serving it.
    /// - Throws: `CatalogError` for invalid fixtures, `StubServerError.bindFailed` when the server cannot listen,
    ///   `.httpsFailed` when HTTPS was asked for and cannot be served.
    public static func start(fixtures: URL, configuration: Configuration = Configuration()) throws -> StubServer {
        try start(catalog: StubCatalog.load(from: fixtures), configuration: configuration)
    }

    /// Starts serving `catalog`.
    /// - Throws: `StubServerError.bindFailed` when the server cannot listen, `.watchFailed` when watching fails.
    public static func start(catalog: StubCatalog, configuration: Configuration = Configuration()) throws -> StubServer
    {
        let server = try StubServer(catalog: catalog, configuration: configuration)
        if configuration.watchFixtures { try server.startWatching() }
        var onAcceptPause: (@Sendable (AcceptPause) -> Void)?
        if let hook = configuration.onAcceptPause { onAcceptPause = { pause in hook(pause.description) } }
        // Each connection a TLS failure meets counts for the coverage report, as an answer does.
        let onAccept = configuration.https?.failure.map { failure in
            { @Sendable [runtime = server.runtime] in runtime.recordTLSFailure(failure) }
        }
        server.engine.start(responder: server, onAcceptPause: onAcceptPause, onAccept: onAccept)
        server.plainEngine?.start(responder: server, onAcceptPause: onAcceptPause)
        return server
    }

    private init(catalog: StubCatalog, configuration: Configuration) throws {
        self.configuration = configuration
        let tls = try configuration.https?.identity()
        certificateAuthorityFile = tls.map { URL(fileURLWithPath: $0.authority.certificatePath) }
        do {
            engine = try HTTPServer(
                host: configuration.host, port: configuration.port, limits: configuration.limits, tls: tls?.identity)
        } catch {
            throw StubServerError.bindFailed(
                host: configuration.host, port: Int(configuration.port), reason: error.description)
        }
        if let plainPort = configuration.https?.plainPort {
            do {
                plainEngine = try HTTPServer(host: configuration.host, port: plainPort, limits: configuration.limits)
            } catch {
                throw StubServerError.bindFailed(
                    host: configuration.host, port: Int(plainPort), reason: error.description)
            }
        } else {
            plainEngine = nil
        }
        port = engine.port
        let host = configuration.host
        let urlHost =
            switch host {
            case "0.0.0.0", "": "127.0.0.1"
            case "::": "[::1]"
            default: host.contains(":") ? "[\(host)]" : host
            }
        baseURL = URL(string: "\(tls == nil ? "http" : "https")://\(urlHost):\(port)")!
        plainBaseURL = plainEngine.map { URL(string: "http://\(urlHost):\($0.port)")! }
        runtime = StubRuntime(
            catalog: catalog,
            StubRuntime.Settings(
                variant: configuration.variant, journalCapacity: configuration.journalCapacity,
                redaction: configuration.redaction, seed: configuration.seed, chaos: configuration.chaos,
                onReload: configuration.onReload, coverage: configuration.coverage, transport: "socket"))
    }

    /// Most connections the server holds open at once; more are answered 503. `Configuration.maxConnections`, or
    /// by default what the process's open-file limit leaves room for.
    package var connectionLimit: Int { engine.limits.maxConnections }

    /// Open client connections, for tests that check connections are cleaned up.
    package var openConnections: Int { engine.openConnections + (plainEngine?.openConnections ?? 0) }

    /// Connections closed because their client stopped reading: none of the pending answer was taken for the
    /// idle timeout.
    package var stalledConnections: Int { engine.stalledConnections + (plainEngine?.stalledConnections ?? 0) }

    /// Times the server stopped accepting because the process had no file descriptor to spare (`EMFILE`); it
    /// accepts again when one of its connections closes, or 100 ms later, and serves open connections meanwhile.
    package var acceptPauses: Int { engine.acceptPauses + (plainEngine?.acceptPauses ?? 0) }

    /// Whether `stop()` has finished: the listener and every connection are closed.
    package var hasStopped: Bool { engine.hasStopped && plainEngine?.hasStopped != false }

    /// Stops accepting, closes every open connection, and returns once the server's thread has finished.
    public func stop() async {
        watcher.withLock { watcher in
            watcher?.stop()
            watcher = nil
        }
        await engine.stop()
        await plainEngine?.stop()
    }

    /// Watches the catalog's folder and reloads when a file in it changes.
    /// - Throws: `StubServerError.notReloadable` for a catalog built in code, `.watchFailed` when the system
    ///   refuses a watch.
    private func startWatching() throws {
        guard let root = catalog.root else { throw StubServerError.notReloadable }
        let fresh = try FixtureWatcher(root: root) { [weak self] changed in
            _ = try? self?.reload(changed: changed)
        }
        watcher.withLock { $0 = fresh }
    }
}

extension StubServer: JournalOrigin {
    package var journalOrigin: String { baseURL.absoluteString }
}

public import Foundation
import HTTPMessages
import Locking
import StubAdmin
import StubCore

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// A stub server without a socket: it answers a `URLSession`'s requests in process, through `URLProtocol`, from
/// the same fixtures, with the same matching, variants, scenarios, templates, journal and near-miss 404s as
/// `StubServer`. Requests keep their real URLs (`https://itunes.apple.com/search?...`).
///
/// ```swift
/// let stubs = try InProcessStubs.start(fixtures: mockData)
/// defer { Task { await stubs.stop() } }
/// try stubs.setVariant("bad", forStub: "top-albums")
/// let client = LiveAlbumsClient(http: URLSessionHTTPClient(session: stubs.urlSession))  // the app's https URLs
/// ```
///
/// Each server answers only the sessions made from its `sessionConfiguration` (or its `urlSession`), so many run
/// at once in parallel tests. In a test, `.stubServer(transport: .inProcess)` or XCTest's
/// `startStubServer(transport: .inProcess)` starts them and hands them over as a `TestStubs`, whose `urlSession` is
/// theirs.
public final class InProcessStubs: LocalStubControl {
    public let configuration: Configuration
    /// The seed of the random faults and chaos: the configured one, or the one picked at start.
    public var seed: UInt64 { runtime.seed }
    /// A session whose requests this server answers.
    public let urlSession: URLSession

    /// The catalog, the choices and the journal, which the control (`LocalStubControl`) steers.
    public let runtime: StubRuntime
    /// The number in the registry, which the protocol class spells (`ServerTag`).
    let number: Int
    let protocolClass: AnyClass
    /// Answers under way, ended when the server stops; nil once stopped.
    private let loads = Lock<[ObjectIdentifier: StubLoad]?>([:])
    /// The admin API on a loopback port, once `serveControl(port:)` started it.
    let control = Lock<AdminServer?>(nil)

    /// Loads `fixtures` (a `MockData`-style folder) and starts answering.
    /// - Throws: `CatalogError` for invalid fixtures.
    public static func start(fixtures: URL, configuration: Configuration = Configuration()) throws -> InProcessStubs {
        start(catalog: try StubCatalog.load(from: fixtures), configuration: configuration)
    }

    /// Starts answering from `catalog`.
    public static func start(catalog: StubCatalog, configuration: Configuration = Configuration()) -> InProcessStubs {
        registry.withLock { registry in
            registry.lastNumber += 1
            let stubs = InProcessStubs(catalog: catalog, configuration: configuration, number: registry.lastNumber)
            registry.servers[stubs.number] = stubs
            return stubs
        }
    }

    private init(catalog: StubCatalog, configuration: Configuration, number: Int) {
        self.configuration = configuration
        self.number = number
        runtime = StubRuntime(
            catalog: catalog,
            StubRuntime.Settings(
                variant: configuration.variant, journalCapacity: configuration.journalCapacity,
                redaction: configuration.redaction, seed: configuration.seed, chaos: configuration.chaos,
                onReload: configuration.onReload, coverage: configuration.coverage, transport: "in process"))
        protocolClass = Self.protocolClass(for: Zero.tag(for: number))
        let sessionConfiguration = Self.sessionConfiguration(answeredBy: protocolClass)
        urlSession = URLSession(configuration: sessionConfiguration)
    }

    private static func protocolClass<Tag: ServerTag>(for _: Tag.Type) -> AnyClass {
        StubURLProtocol<Tag>.self
    }

    /// A new ephemeral configuration whose sessions this server answers: set it up as the app does, then make the
    /// session. Two of its settings do not reach a `URLProtocol`: `timeoutIntervalForRequest`
    /// (the request's `timeoutInterval` applies) and `httpAdditionalHeaders` (stubs see the request's own fields).
    public var sessionConfiguration: URLSessionConfiguration {
        Self.sessionConfiguration(answeredBy: protocolClass)
    }

    private static func sessionConfiguration(answeredBy protocolClass: AnyClass) -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [protocolClass]
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return configuration
    }

    /// Whether `stop()` has run: requests to this server's sessions then fail with `URLError(.cannotConnectToHost)`.
    public var hasStopped: Bool {
        loads.withLock { $0 == nil }
    }

    /// Stops answering: answers under way end with `URLError(.networkConnectionLost)`, as when the socket
    /// server closes its connections, and later requests fail with `URLError(.cannotConnectToHost)`.
    public func stop() async {
        release()
        if let control = control.withLock({ $0.take() }) { await control.stop() }
    }

    /// What `stop()` does but stopping the admin API's server.
    func release() {
        let pending = loads.withLock { loads in
            defer { loads = nil }
            return Array((loads ?? [:]).values)
        }
        for load in pending { load.fail(.networkConnectionLost, "the in-process stub server stopped") }
        stopInterceptingSharedSession()
        Self.registry.withLock { $0.servers[number] = nil }
        // Not `invalidateAndCancel()`: every load under way has just failed, so its task ends by itself, and
        // FoundationNetworking traps when a task is cancelled as it leaves the session's registry
        // (swift-corelibs-foundation issue 3296).
        urlSession.finishTasksAndInvalidate()
    }

    /// Decides `request` and starts its answer through `channel`.
    private func answer(_ request: URLRequest, through channel: ClientChannel) -> StubLoad {
        let url = request.url ?? URL(string: "about:blank")!
        if let failure = configuration.tlsFailure, url.scheme?.lowercased() == "https" {
            runtime.recordTLSFailure(failure)
            return failHandshake(failure, request: request, url: url, through: channel)
        }
        var answer: StubAnswer
        var onStreamEnd: (@Sendable (Int) -> Void)?
        do {
            let decoded = try request.stubRequest(maxBodyBytes: configuration.maxBodyBytes)
            let host = url.host ?? ""
            let exchange = runtime.exchange(decoded, host: host, baseURL: request.origin)
            answer = exchange.answer ?? .error(.internalServerError, "no forwarder answers in process")
            onStreamEnd = exchange.onStreamEnd
            if case .webSocket = answer.delivery {
                // URLSessionWebSocketTask never reaches a URLProtocol: only a real socket can answer a WebSocket.
                exchange.webSocketRefused(status: 501)
                answer = .error(
                    .notImplemented,
                    "stub \(exchange.decision.stubName ?? "") is a WebSocket, which cannot be answered in process "
                        + "(URLSessionWebSocketTask does not go through URLProtocol); use StubServer, a real socket")
            }
        } catch {
            answer = .error(error.error.status, error.error.message)
        }
        let timeout = request.timeoutInterval > 0 ? request.timeoutInterval : 60
        let load = StubLoad(
            answer: answer, url: url, omitsBody: request.httpMethod == "HEAD",
            timeout: .milliseconds(Int(timeout * 1000)), channel: channel, onStreamEnd: onStreamEnd
        ) { [weak self] in self?.forget(channel) }
        let started = loads.withLock { loads in
            loads?[ObjectIdentifier(channel)] = load
            return loads != nil
        }
        if started {
            load.start()
        } else {
            // Stopped after this request was decided (and journaled): an answer under way, as `stop()` ends those.
            load.fail(.networkConnectionLost, "the in-process stub server stopped")
        }
        return load
    }

    /// Ends a request as URLSession ends one whose TLS handshake failed this way: the failure's `URLError`, or,
    /// for a stalled handshake, `.timedOut` once the request's timeout passes.
    private func failHandshake(
        _ failure: TLSFailure, request: URLRequest, url: URL, through channel: ClientChannel
    ) -> StubLoad {
        let timeout = request.timeoutInterval > 0 ? request.timeoutInterval : 60
        let load = StubLoad(
            answer: StubAnswer(status: .ok, delivery: .fault(.hang)), url: url, omitsBody: true,
            timeout: .milliseconds(Int(timeout * 1000)), channel: channel
        ) { [weak self] in self?.forget(channel) }
        let started = loads.withLock { loads in
            loads?[ObjectIdentifier(channel)] = load
            return loads != nil
        }
        guard started else {
            load.fail(.cannotConnectToHost, "the in-process stub server has stopped")
            return load
        }
        if let (code, message) = failure.urlError {
            load.fail(code, message + " (tls-failure \(failure.id))")
        } else {
            load.start()  // handshake-stall: nothing comes until the request's timeout
        }
        return load
    }

    private func forget(_ channel: ClientChannel) {
        loads.withLock { _ = $0?.removeValue(forKey: ObjectIdentifier(channel)) }
    }
}

extension TLSFailure {
    /// The error URLSession raises when a handshake fails this way, and its description; nil for a stalled
    /// handshake, which ends with the request's timeout.
    var urlError: (URLError.Code, String)? {
        switch self {
        case .expired: (.serverCertificateHasBadDate, "the server's certificate has expired")
        case .notYetValid: (.serverCertificateNotYetValid, "the server's certificate is not yet valid")
        case .wrongHost: (.serverCertificateUntrusted, "the server's certificate names another host")
        case .selfSigned: (.serverCertificateUntrusted, "the server's certificate is self-signed")
        case .unknownAuthority: (.serverCertificateUntrusted, "the server's certificate is from an unknown authority")
        case .otherKey:
            (
                .unsupportedURL,
                "other-key needs a real TLS handshake for a pinning delegate to check: serve it with StubServer over HTTPS"
            )
        case .oldProtocol: (.secureConnectionFailed, "the server speaks TLS 1.1 only")
        case .handshakeReset: (.secureConnectionFailed, "the server reset the connection during the handshake")
        case .handshakeStall: nil
        }
    }
}

extension InProcessStubs {
    /// The running servers by number, and which one answers `URLSession.shared`, if any.
    struct Registry {
        var lastNumber = 0
        var servers: [Int: InProcessStubs] = [:]
        var intercepting: Int?
    }

    static let registry = Lock(Registry())

    /// Starts the answer to `request` by the server numbered `number`; a failure when that server has stopped or
    /// the task is one this platform cannot answer in process (`unsupported` says why).
    static func startLoading(
        _ request: URLRequest, server number: Int, unsupported: String?, through channel: ClientChannel
    ) -> StubLoad {
        let server = registry.withLock { $0.servers[number] }
        if let server, unsupported == nil { return server.answer(request, through: channel) }
        let load = StubLoad(
            answer: StubAnswer(status: .ok), url: request.url ?? URL(string: "about:blank")!, omitsBody: true,
            timeout: .seconds(1), channel: channel, onEnd: {})
        if let unsupported {
            load.fail(.unsupportedURL, unsupported)
        } else {
            load.fail(.cannotConnectToHost, "the in-process stub server has stopped")
        }
        return load
    }
}

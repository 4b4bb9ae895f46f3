public import Foundation
import StubContracts
public import StubServer
public import StubServerInProcess
public import StubServerRemote

/// Where a test's stubs answer, and what the test gets to steer them: a parameter of the `.stubServer` trait and
/// of XCTest's `startStubServer(transport:)`. Both hand the test its stubs as a `TestStubs`, whatever the transport.
///
/// - `.socket`: a `StubServer` on an ephemeral loopback port; `TestStubs.url(_:)` puts a real URL's path and query
///   on its address.
/// - `.inProcess`: `InProcessStubs`, answering through `URLProtocol` at the requests' real https URLs, which
///   `TestStubs.url(_:)` leaves as they are.
/// - `.remote`: `RemoteStubs`, the stubs of another process (`stub-server serve`, or an app that started
///   `InProcessStubs` with a control port) steered through its admin API; reset for each test.
///
/// ```swift
/// @Test(.stubServer(transport: .inProcess, variants: ["top-albums": "bad"]))  // or .socket: the body is the same
/// func albumList_showsAFailure() async throws {
///     let stubs = try TestStubs.required()
///     // ... give the client stubs.urlSession and stubs.url(realBaseURL)
/// }
/// ```
public struct StubTransport<Stubs>: Sendable {
    /// Its name in messages: `socket`, `in process`, `remote`.
    package let name: String
    /// Whether the stubs answer from a fixtures folder of this process (not another process's).
    package let readsFixtures: Bool
    /// Starts the stubs for one test, or connects to them.
    package let start: @Sendable (TestStubSettings) async throws -> Stubs
    /// Whether this is the default a trait was given by leaving the transport out (a suite's then wins).
    package var isDefault = false

    package init(
        name: String, readsFixtures: Bool, start: @escaping @Sendable (TestStubSettings) async throws -> Stubs
    ) {
        self.name = name
        self.readsFixtures = readsFixtures
        self.start = start
    }
}

extension StubTransport where Stubs == StubServer {
    /// A stub server on an ephemeral loopback port.
    public static var socket: Self { socket(StubServer.Configuration()) }

    /// `.socket`, as the default of a parameter left out: a trait around the test may say otherwise.
    @usableFromInline package static var unspecified: Self {
        var transport = socket
        transport.isDefault = true
        return transport
    }

    /// A stub server configured by `configuration` (port 0, the default, takes a free one).
    public static func socket(_ configuration: StubServer.Configuration) -> Self {
        Self(name: "socket", readsFixtures: true) { settings in
            let server = try StubServer.start(
                catalog: CatalogCache.catalog(of: settings.folder()), configuration: configuration)
            if settings.contracts { server.runtime.installContractChecks() }
            server.runtime.recordCoverage(as: settings.test)
            return try await settings.apply(to: server)
        }
    }
}

extension StubTransport where Stubs == InProcessStubs {
    /// Stubs answering `URLSession` in this process, at the requests' real URLs.
    public static var inProcess: Self { inProcess(InProcessStubs.Configuration()) }

    /// In-process stubs configured by `configuration`.
    public static func inProcess(_ configuration: InProcessStubs.Configuration) -> Self {
        Self(name: "in process", readsFixtures: true) { settings in
            let stubs = InProcessStubs.start(
                catalog: try CatalogCache.catalog(of: settings.folder()), configuration: configuration)
            if settings.contracts { stubs.runtime.installContractChecks() }
            stubs.runtime.recordCoverage(as: settings.test)
            return try await settings.apply(to: stubs)
        }
    }
}

extension StubTransport where Stubs == RemoteStubs {
    /// The stubs of another process at `STUB_SERVER_URL` of this process's environment.
    public static var remote: Self { remote(nil) }

    /// The stubs of another process at `url` (its base URL, where `/__stub/` answers); `STUB_SERVER_URL` when nil.
    public static func remote(_ url: URL?) -> Self {
        Self(name: "remote", readsFixtures: false) { settings in
            guard
                let url = url
                    ?? ProcessInfo.processInfo.environment[RemoteStubs.environmentKey].flatMap(URL.init(string:))
            else {
                throw StubServerError.controlFailed(
                    url: "(none)",
                    reason: "pass a URL (.remote(url)) or set \(RemoteStubs.environmentKey) "
                        + "(for example http://127.0.0.1:8080)")
            }
            let remote = RemoteStubs(url: url)
            do {
                // Not reset: not called at all (an app's control port may not listen yet).
                if settings.reset {
                    try await remote.reset()
                    try await remote.recordCoverage(as: settings.test)
                }
            } catch {
                await remote.stop()
                throw error
            }
            return try await settings.apply(to: remote)
        }
    }
}

extension StubTransport where Stubs: StubControl {
    /// This transport, its stubs seen only as their control: what a trait that takes any transport keeps.
    package var erased: StubTransport<any StubControl> {
        let start = start
        var erased = StubTransport<any StubControl>(name: name, readsFixtures: readsFixtures) { try await start($0) }
        erased.isDefault = isDefault
        return erased
    }
}

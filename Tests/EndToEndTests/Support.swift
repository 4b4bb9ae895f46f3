import Foundation
import Networking
import StubServer
import StubServerInProcess
import StubServerRemote
import StubServerTesting
import StubTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The package's `MockData/` folder.
let mockData = StubCatalog.findFolder()!

/// The real client with a short, explicit timeout, as end-to-end tests use it.
func realClient(timeout: TimeInterval = 5, configuration: URLSessionConfiguration = .ephemeral)
    -> URLSessionHTTPClient
{
    configuration.timeoutIntervalForRequest = timeout
    configuration.timeoutIntervalForResource = timeout * 2
    return URLSessionHTTPClient(session: URLSession(configuration: configuration))
}

/// How the fixtures reach the real URLSession client: over loopback HTTP from `StubServer`, or in process
/// through `InProcessStubs`, the app's real https URLs unchanged. The features' end-to-end tests run over both.
enum Transport: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case socket
    case inProcess

    var testDescription: String { rawValue }
}

/// Who a control test talks to: the stubs themselves, over either transport, or the socket server through its
/// admin API (`RemoteStubs`), as a test in another process would.
enum Control: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case socket
    case inProcess
    case remote

    var transport: Transport { self == .inProcess ? .inProcess : .socket }
    var testDescription: String { rawValue }
}

/// A stub server serving `MockData/` over one transport, for one test.
struct Stubs: Sendable {
    var server: any StubControl
    /// Where the client sends requests: the socket server's loopback URL, or the real host in process.
    let baseURL: URL
    private let sessionConfiguration: @Sendable () -> URLSessionConfiguration

    /// A new configuration whose sessions reach this server.
    var configuration: URLSessionConfiguration { sessionConfiguration() }

    /// The real client reaching this server, with `realClient`'s timeouts.
    func client(timeout: TimeInterval = 5) -> URLSessionHTTPClient {
        realClient(timeout: timeout, configuration: sessionConfiguration())
    }

    /// Runs `body` with a server of `fixtures` over `transport`, stopped afterwards; in process, requests go to
    /// `realHost`.
    static func with<T>(
        _ transport: Transport, fixtures: URL = mockData, realHost: URL,
        isolation: isolated (any Actor)? = #isolation, _ body: (Stubs) async throws -> T
    ) async throws -> T {
        // MockData's catalog is loaded once for the run, off the main actor: most tests here are `@MainActor`, and
        // loading it there for each of them held every view model test behind it.
        let catalog = fixtures == mockData ? try await MockData.catalog() : try StubCatalog.load(from: fixtures)
        // Named in the coverage records as the trait names its test's server.
        let test = Test.current.map(StubServerTrait.coverageName(of:))
        switch transport {
        case .socket:
            return try await withStubServer(catalog: catalog) { server in
                server.runtime.recordCoverage(as: test)
                return try await body(Stubs(server: server, baseURL: server.baseURL) { .ephemeral })
            }
        case .inProcess:
            let stubs = InProcessStubs.start(catalog: catalog)
            stubs.runtime.recordCoverage(as: test)
            do {
                let result = try await body(Stubs(server: stubs, baseURL: realHost) { stubs.sessionConfiguration })
                await stubs.stop()
                return result
            } catch {
                await stubs.stop()
                throw error
            }
        }
    }
}

extension Stubs {
    /// Runs `body` with these stubs controlled as `control` says: themselves, or (`.remote`, over the socket) a
    /// `RemoteStubs` of their admin API, as a test in another process would.
    func controlled<T>(
        as control: Control, isolation: isolated (any Actor)? = #isolation, _ body: (Stubs) async throws -> T
    ) async throws -> T {
        guard control == .remote else { return try await body(self) }
        var remotely = self
        let remote = RemoteStubs(url: baseURL)
        remotely.server = remote
        do {
            let result = try await body(remotely)
            await remote.stop()
            return result
        } catch {
            await remote.stop()
            throw error
        }
    }
}

public import Foundation
import StubContracts
public import StubServer
public import StubServerInProcess
public import StubServerRemote
public import XCTest

// The starters from before the transport was a parameter, for one release. The synchronous ones start their
// server as the transport does and stop it the same way. Their warnings give the new spelling as a message, not
// `renamed:`, whose fix-it maps arguments by position and would lose the transport.
extension XCTestCase {
    @available(
        *, deprecated, message: "use try await startStubServer(transport: .socket(configuration), fixtures: ...)"
    )
    public func startStubServer(
        fixtures: URL, configuration: StubServer.Configuration = StubServer.Configuration(),
        unmatched: UnmatchedRequests = .fail, contracts: Bool = true, file: StaticString = #filePath,
        line: UInt = #line
    ) throws -> StubServer {
        let server = try StubServer.start(fixtures: fixtures, configuration: configuration)
        if contracts { server.runtime.installContractChecks() }
        stopAtTeardown(server, unmatched: unmatched, file: file, line: line)
        return server
    }

    @available(
        *, deprecated, message: "use try await startStubServer(transport: .socket(configuration), fixtures: ...)"
    )
    public func startStubServer(
        fixtures: String = "MockData", configuration: StubServer.Configuration = StubServer.Configuration(),
        unmatched: UnmatchedRequests = .fail, contracts: Bool = true, file: StaticString = #filePath,
        line: UInt = #line
    ) throws -> StubServer {
        try startStubServer(
            fixtures: Self.folder(fixtures, from: file), configuration: configuration, unmatched: unmatched,
            contracts: contracts, file: file, line: line)
    }

    @available(
        *, deprecated, message: "use try await startStubServer(transport: .inProcess(configuration), fixtures: ...)"
    )
    public func startInProcessStubs(
        fixtures: String = "MockData", configuration: InProcessStubs.Configuration = InProcessStubs.Configuration(),
        unmatched: UnmatchedRequests = .fail, contracts: Bool = true, file: StaticString = #filePath,
        line: UInt = #line
    ) throws -> InProcessStubs {
        try startInProcessStubs(
            fixtures: Self.folder(fixtures, from: file), configuration: configuration, unmatched: unmatched,
            contracts: contracts, file: file, line: line)
    }

    @available(
        *, deprecated, message: "use try await startStubServer(transport: .inProcess(configuration), fixtures: ...)"
    )
    public func startInProcessStubs(
        fixtures: URL, configuration: InProcessStubs.Configuration = InProcessStubs.Configuration(),
        unmatched: UnmatchedRequests = .fail, contracts: Bool = true, file: StaticString = #filePath,
        line: UInt = #line
    ) throws -> InProcessStubs {
        let stubs = try InProcessStubs.start(fixtures: fixtures, configuration: configuration)
        if contracts { stubs.runtime.installContractChecks() }
        stopAtTeardown(stubs, unmatched: unmatched, file: file, line: line)
        return stubs
    }

    @available(*, deprecated, message: "use try await startStubServer(transport: .remote(url), reset: ...)")
    public func connectRemoteStubs(
        url: URL? = nil, reset: Bool = true, unmatched: UnmatchedRequests = .fail, file: StaticString = #filePath,
        line: UInt = #line, isolation: isolated (any Actor)? = #isolation
    ) async throws -> RemoteStubs {
        try await startStubServer(
            transport: .remote(url), folder: nil, variants: [:], variant: nil, unmatched: unmatched, contracts: false,
            reset: reset, file: file, line: line)
    }
}

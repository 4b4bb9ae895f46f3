public import Foundation
public import StubServer
public import StubServerInProcess
public import Testing

// The spellings before the transport was a parameter of one trait: each forwards to `.stubServer(transport:...)`,
// for one release. The functions' warnings give the new spelling as a message, not `renamed:`: a rename's fix-it
// maps arguments by position, and would write `.stubServer(transport: "MockData")` or drop the transport.

/// The in-process trait, now `.stubServer(transport: .inProcess)`.
@available(*, deprecated, renamed: "StubServerTrait")
public typealias InProcessStubsTrait = StubServerTrait

/// The remote trait, now `.stubServer(transport: .remote(url))`.
@available(*, deprecated, renamed: "StubServerTrait")
public typealias RemoteStubsTrait = StubServerTrait

extension Trait where Self == StubServerTrait {
    @available(*, deprecated, message: "use .stubServer(transport: .socket(configuration), ...)")
    public static func stubServer(
        fixtures: String? = nil, variants: [String: String] = [:], variant: String? = nil,
        unmatched: UnmatchedRequests? = nil, contracts: Bool? = nil, configuration: StubServer.Configuration,
        filePath: String = #filePath
    ) -> Self {
        stubServer(
            transport: .socket(configuration), fixtures: fixtures, variants: variants, variant: variant,
            unmatched: unmatched, contracts: contracts, filePath: filePath)
    }

    @available(*, deprecated, message: "use .stubServer(transport: .socket(configuration), ...)")
    public static func stubServer(
        fixtures: URL, variants: [String: String] = [:], variant: String? = nil, unmatched: UnmatchedRequests? = nil,
        contracts: Bool? = nil, configuration: StubServer.Configuration, filePath: String = #filePath
    ) -> Self {
        stubServer(
            transport: .socket(configuration), fixtures: fixtures, variants: variants, variant: variant,
            unmatched: unmatched, contracts: contracts, filePath: filePath)
    }

    @available(*, deprecated, message: "use .stubServer(transport: .inProcess, ...)")
    public static func inProcessStubs(
        fixtures: String? = nil, variants: [String: String] = [:], variant: String? = nil,
        unmatched: UnmatchedRequests? = nil, contracts: Bool? = nil,
        configuration: InProcessStubs.Configuration? = nil, filePath: String = #filePath
    ) -> Self {
        stubServer(
            transport: .inProcess(configuration ?? InProcessStubs.Configuration()), fixtures: fixtures,
            variants: variants, variant: variant, unmatched: unmatched, contracts: contracts, filePath: filePath)
    }

    @available(*, deprecated, message: "use .stubServer(transport: .inProcess, ...)")
    public static func inProcessStubs(
        fixtures: URL, variants: [String: String] = [:], variant: String? = nil, unmatched: UnmatchedRequests? = nil,
        contracts: Bool? = nil, configuration: InProcessStubs.Configuration? = nil, filePath: String = #filePath
    ) -> Self {
        stubServer(
            transport: .inProcess(configuration ?? InProcessStubs.Configuration()), fixtures: fixtures,
            variants: variants, variant: variant, unmatched: unmatched, contracts: contracts, filePath: filePath)
    }

    @available(*, deprecated, message: "use .stubServer(transport: .remote(url), ...)")
    public static func remoteStubs(
        url: URL? = nil, variants: [String: String] = [:], variant: String? = nil,
        unmatched: UnmatchedRequests? = nil
    ) -> Self {
        stubServer(transport: .remote(url), variants: variants, variant: variant, unmatched: unmatched)
    }
}

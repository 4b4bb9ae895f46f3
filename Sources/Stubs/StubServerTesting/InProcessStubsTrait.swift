public import Foundation
import StubContracts
public import StubServer
public import StubServerInProcess
public import Testing

/// Runs each test, or each test of a suite, with its own in-process stub server, given to the test as
/// `InProcessStubs.current`: requests keep their real https URLs and reach the fixtures through the server's
/// `urlSession`. Strict like `.stubServer`: a request no stub matched fails the test. On a suite and one of its
/// tests, the test gets one server, its trait's settings over the suite's (as `.stubServer`).
///
/// ```swift
/// @Test(.inProcessStubs(variants: ["top-albums": "bad"]))
/// func albumList_showsAFailure() async throws {
///     let stubs = try InProcessStubs.required()
///     // ... give the client stubs.urlSession
/// }
/// ```
public struct InProcessStubsTrait: TestTrait, SuiteTrait, TestScoping, FolderStubTrait {
    /// The fixtures folder: a path, or a folder name looked for beside and above the test file.
    public var fixtures: String
    /// The fixtures folder itself, when given as a URL; wins over `fixtures`.
    public var fixturesURL: URL?
    /// Variants chosen per stub before the test runs.
    public var variants: [String: String]
    /// The server-wide variant, if any.
    public var serverVariant: String?
    public var unmatched: UnmatchedRequests
    public var configuration: InProcessStubs.Configuration
    /// The test file, where the search for `fixtures` starts.
    public var filePath: String
    /// Whether requests to stubs that stand for an OpenAPI operation (their `openapi` key) are checked against it;
    /// a request the operation would refuse fails the test like an unmatched one (unless `unmatched` is `.allow`).
    public var contracts = true
    let identity = UUID()
    var given: Set<TraitSetting> = TraitSetting.all

    public var isRecursive: Bool { true }

    /// A scope for each test case (every case of a parameterised test gets a fresh server), from the trait nearest
    /// the test, with the settings of those around it; none for suites.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : scope(for: test)
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let folder = try resolveFixtures(fixtures, url: fixturesURL, from: filePath)
        let stubs = InProcessStubs.start(catalog: try CatalogCache.catalog(of: folder), configuration: configuration)
        if contracts { stubs.runtime.installContractChecks() }
        let strictness = Strictness(
            unmatched: unmatched, location: test.sourceLocation,
            hint: "strict .inProcessStubs: pass unmatched: .allow to permit unmatched requests")
        do {
            try await stubs.choose(serverVariant: serverVariant, variants: variants)
            try await strictness.scope { try await InProcessStubs.$current.withValue(stubs) { try await function() } }
        } catch {
            await strictness.check(stubs)
            await stubs.stop()
            throw error
        }
        await strictness.check(stubs)
        await stubs.stop()
    }
}

extension Trait where Self == InProcessStubsTrait {
    /// An in-process stub server for each test: `fixtures` (a folder found from the test file), per-stub
    /// `variants`, a server-wide `variant`, what an unmatched request does (`.fail` by default), and whether
    /// requests are checked against their stubs' OpenAPI operations (`contracts`, on by default). A setting left
    /// out takes the suite's, when the suite has this trait too.
    public static func inProcessStubs(
        fixtures: String? = nil, variants: [String: String] = [:], variant: String? = nil,
        unmatched: UnmatchedRequests? = nil, contracts: Bool? = nil,
        configuration: InProcessStubs.Configuration? = nil, filePath: String = #filePath
    ) -> Self {
        InProcessStubsTrait(
            fixtures: fixtures ?? "MockData", variants: variants, serverVariant: variant, unmatched: unmatched ?? .fail,
            configuration: configuration ?? InProcessStubs.Configuration(), filePath: filePath,
            contracts: contracts ?? true,
            given: TraitSetting.given(
                fixtures: fixtures, variant: variant, unmatched: unmatched, contracts: contracts,
                configuration: configuration))
    }

    /// An in-process stub server for each test, serving the fixtures folder at `fixtures` (a test bundle's
    /// resources, for instance).
    public static func inProcessStubs(
        fixtures: URL, variants: [String: String] = [:], variant: String? = nil,
        unmatched: UnmatchedRequests? = nil, contracts: Bool? = nil,
        configuration: InProcessStubs.Configuration? = nil, filePath: String = #filePath
    ) -> Self {
        InProcessStubsTrait(
            fixtures: fixtures.path, fixturesURL: fixtures, variants: variants, serverVariant: variant,
            unmatched: unmatched ?? .fail, configuration: configuration ?? InProcessStubs.Configuration(),
            filePath: filePath, contracts: contracts ?? true,
            given: TraitSetting.given(
                fixtures: fixtures, variant: variant, unmatched: unmatched, contracts: contracts,
                configuration: configuration))
    }
}

public import Foundation
public import StubHarness
public import StubServer
public import Testing

/// Runs each test, or each test of a suite, with its own stubs over `transport` (a socket server by default, in
/// process, or another process's), given to the test as `TestStubs.current`, the same whatever the transport;
/// strict by default: a request no stub matched fails the test.
///
/// On a suite and on one of its tests, the test still gets one server: the test's settings over the suite's, the
/// transport, the fixtures folder and anything else the test's trait does not give taken from the suite's, and
/// the per-stub variants of both.
///
/// ```swift
/// @Test(.stubServer(variants: ["top-albums": "bad"]))
/// func albumList_showsAFailure() async throws {
///     let stubs = try TestStubs.required()
///     // ... give the client stubs.urlSession and stubs.url(realBaseURL)
/// }
/// ```
public struct StubServerTrait: TestTrait, SuiteTrait, TestScoping, NestedTrait {
    /// Where the stubs answer.
    package var transport: StubTransport<any StubControl>
    /// The fixtures folder: a path, or a folder name looked for beside and above the test file.
    public var fixtures: String
    /// The fixtures folder itself, when given as a URL (a test bundle's resources on a device); wins over
    /// `fixtures`.
    public var fixturesURL: URL?
    /// Variants chosen per stub before the test runs.
    public var variants: [String: String]
    /// The server-wide variant, if any.
    public var serverVariant: String?
    public var unmatched: UnmatchedRequests
    /// The test file, where the search for `fixtures` starts.
    public var filePath: String
    /// Whether requests to stubs that stand for an OpenAPI operation (their `openapi` key) are checked against it;
    /// a request the operation would refuse fails the test like an unmatched one (unless `unmatched` is `.allow`).
    public var contracts: Bool
    let identity = UUID()
    var given: Set<TraitSetting>

    public var isRecursive: Bool { true }

    /// A scope for each test case (so every case of a parameterised test gets a fresh server), from the trait
    /// nearest the test, with the settings of those around it; none for suites.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : scope(for: test)
    }

    func merged(over outer: Self) -> Self {
        var merged = self
        if !given.contains(.transport) { merged.transport = outer.transport }
        if !given.contains(.fixtures) {
            (merged.fixtures, merged.fixturesURL, merged.filePath) = (outer.fixtures, outer.fixturesURL, outer.filePath)
        }
        if !given.contains(.variant) { merged.serverVariant = outer.serverVariant }
        if !given.contains(.unmatched) { merged.unmatched = outer.unmatched }
        if !given.contains(.contracts) { merged.contracts = outer.contracts }
        merged.variants = outer.variants.merging(variants) { _, inner in inner }
        merged.given = given.union(outer.given)
        return merged
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let folder = transport.readsFixtures ? try resolveFixtures(fixtures, url: fixturesURL, from: filePath) : nil
        let stubs = TestStubs(
            try await transport.start(
                TestStubSettings(
                    fixtures: folder, variants: variants, serverVariant: serverVariant, contracts: contracts,
                    test: Self.coverageName(of: test))))
        let strictness = Strictness(
            unmatched: unmatched, location: test.sourceLocation,
            hint: "strict .stubServer: pass unmatched: .allow to permit unmatched requests")
        do {
            try await strictness.scope { try await TestStubs.$current.withValue(stubs) { try await function() } }
        } catch {
            await strictness.check(stubs)
            await stubs.stop()
            throw error
        }
        await strictness.check(stubs)
        await stubs.stop()
    }

    /// `test` as coverage records name it: `Module.Suite/name()`, what `swift test --xunit-output` writes as a
    /// test case's `classname` and `name`.
    package static func coverageName(of test: Test) -> String {
        let names = test.id.nameComponents
        let suite = ([test.id.moduleName] + names.dropLast()).joined(separator: ".")
        return "\(suite)/\(names.last ?? test.name)"
    }
}

extension Trait where Self == StubServerTrait {
    /// Stubs for each test over `transport` (`.socket` by default, `.inProcess`, `.remote(url)`): `fixtures` (a
    /// folder found from the test file), per-stub `variants`, a server-wide `variant`, what an unmatched request
    /// does (`.fail` by default), and whether requests are checked against their stubs' OpenAPI operations
    /// (`contracts`, on by default; a refused request fails like an unmatched one).
    ///
    /// A setting left out takes the suite's, when the suite has this trait too; else a socket server, `MockData`,
    /// no variant, `.fail` and contracts on.
    public static func stubServer<Stubs: StubControl>(
        transport: StubTransport<Stubs> = .unspecified, fixtures: String? = nil, variants: [String: String] = [:],
        variant: String? = nil, unmatched: UnmatchedRequests? = nil, contracts: Bool? = nil,
        filePath: String = #filePath
    ) -> Self {
        StubServerTrait(
            transport: transport.erased, fixtures: fixtures ?? "MockData", variants: variants, serverVariant: variant,
            unmatched: unmatched ?? .fail, filePath: filePath, contracts: contracts ?? true,
            given: TraitSetting.given(
                transport: transport, fixtures: fixtures, variant: variant, unmatched: unmatched,
                contracts: contracts))
    }

    /// Stubs for each test over `transport`, serving the fixtures folder at `fixtures`: a test bundle's resources,
    /// which is how fixtures reach a test on a device, where the test file's folder does not exist:
    ///
    /// ```swift
    /// // Package.swift: .testTarget(name: "AppTests", dependencies: [...], resources: [.copy("MockData")])
    /// @Suite(.stubServer(fixtures: Bundle.module.url(forResource: "MockData", withExtension: nil)!))
    /// ```
    public static func stubServer<Stubs: StubControl>(
        transport: StubTransport<Stubs> = .unspecified, fixtures: URL, variants: [String: String] = [:],
        variant: String? = nil, unmatched: UnmatchedRequests? = nil, contracts: Bool? = nil,
        filePath: String = #filePath
    ) -> Self {
        var trait = stubServer(
            transport: transport, fixtures: fixtures.path, variants: variants, variant: variant, unmatched: unmatched,
            contracts: contracts, filePath: filePath)
        trait.fixturesURL = fixtures
        return trait
    }
}

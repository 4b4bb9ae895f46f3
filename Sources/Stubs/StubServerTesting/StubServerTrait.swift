public import Foundation
import StubContracts
public import StubServer
public import Testing

/// Runs each test, or each test of a suite, with its own stub server on an ephemeral loopback port, given to
/// the test as `StubServer.current`; strict by default: a request no stub matched fails the test.
///
/// On a suite and on one of its tests, the test still gets one server: the test's settings over the suite's, the
/// fixtures folder and anything else the test's trait does not give taken from the suite's, and the per-stub
/// variants of both.
///
/// ```swift
/// @Test(.stubServer(variants: ["top-albums": "bad"]))
/// func albumList_showsAFailure() async throws {
///     let server = try StubServer.required()
///     // ... point the client at server.baseURL
/// }
/// ```
public struct StubServerTrait: TestTrait, SuiteTrait, TestScoping, FolderStubTrait {
    /// The policy for requests no stub matched, under its earlier name.
    @available(*, deprecated, renamed: "UnmatchedRequests")
    public typealias Unmatched = UnmatchedRequests

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
    public var configuration: StubServer.Configuration
    /// The test file, where the search for `fixtures` starts.
    public var filePath: String
    /// Whether requests to stubs that stand for an OpenAPI operation (their `openapi` key) are checked against it;
    /// a request the operation would refuse fails the test like an unmatched one (unless `unmatched` is `.allow`).
    public var contracts = true
    let identity = UUID()
    var given: Set<TraitSetting> = TraitSetting.all

    public var isRecursive: Bool { true }

    /// A scope for each test case (so every case of a parameterised test gets a fresh server), from the trait
    /// nearest the test, with the settings of those around it; none for suites.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : scope(for: test)
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let folder = try resolveFixtures(fixtures, url: fixturesURL, from: filePath)
        try await withStubServer(catalog: CatalogCache.catalog(of: folder), configuration: configuration) { server in
            if contracts { server.runtime.installContractChecks() }
            try await server.choose(serverVariant: serverVariant, variants: variants)
            let strictness = Strictness(
                unmatched: unmatched, location: test.sourceLocation,
                hint: "strict .stubServer: pass unmatched: .allow to permit unmatched requests")
            do {
                try await strictness.scope { try await StubServer.$current.withValue(server) { try await function() } }
            } catch {
                await strictness.check(server)
                throw error
            }
            await strictness.check(server)
        }
    }
}

extension StubControl {
    /// Sets the server-wide variant, then each stub's (in name order).
    func choose(serverVariant: String?, variants: [String: String]) async throws(StubServerError) {
        try await setVariant(serverVariant)
        for (stub, variant) in variants.sorted(by: { $0.key < $1.key }) {
            try await setVariant(variant, forStub: stub)
        }
    }
}

/// What a trait does, when its test ends, with the requests no stub matched.
struct Strictness {
    var unmatched: UnmatchedRequests
    var location: SourceLocation
    /// How to permit them, added to each issue.
    var hint: String
    /// The journal entries the test reported itself (`expectNoUnmatchedRequests()`): not reported again.
    let reported = ReportedEntries()

    /// Runs `body` with `reported` as the test's, so that `expectNoUnmatchedRequests()` inside it (or inside
    /// `withKnownIssue`) settles what it reports.
    func scope<T>(_ body: () async throws -> T) async rethrows -> T {
        try await ReportedEntries.$current.withValue(reported) { try await body() }
    }

    /// Records an issue for each request no stub matched, with the closest stubs, unless they are allowed or the
    /// test reported them already.
    func check(_ server: any StubControl) async {
        guard unmatched == .fail else { return }
        do {
            let settled = reported.entries
            let reports = try await server.unmatchedReportsByEntry().filter { !settled.contains($0.entry) }.map(
                \.report)
            for report in reports {
                Issue.record(Comment(rawValue: report + "\n(\(hint))"), sourceLocation: location)
            }
            if !reports.isEmpty {
                await attachEvidence(of: server, report: reports.joined(separator: "\n\n"), sourceLocation: location)
            }
        } catch {
            Issue.record(Comment(rawValue: error.description), sourceLocation: location)
        }
    }
}

/// The fixtures folder a trait names: `url` when given, an absolute path, or a folder named `fixtures` found
/// beside the test file `filePath` or in a folder above it.
func resolveFixtures(_ fixtures: String, url: URL?, from filePath: String) throws -> URL {
    if let url { return url }
    if fixtures.hasPrefix("/") { return URL(fileURLWithPath: fixtures) }
    guard let folder = StubCatalog.findFolder(named: fixtures, from: filePath) else {
        throw StubServerTestingError.fixturesNotFound(fixtures, from: filePath)
    }
    return folder
}

extension Trait where Self == StubServerTrait {
    /// A stub server for each test: `fixtures` (a folder found from the test file), per-stub `variants`, a
    /// server-wide `variant`, what an unmatched request does (`.fail` by default), and whether requests are checked
    /// against their stubs' OpenAPI operations (`contracts`, on by default; a refused request fails like an
    /// unmatched one).
    ///
    /// A setting left out takes the suite's, when the suite has this trait too; else `MockData`, no variant,
    /// `.fail`, contracts on and the default configuration.
    public static func stubServer(
        fixtures: String? = nil, variants: [String: String] = [:], variant: String? = nil,
        unmatched: UnmatchedRequests? = nil, contracts: Bool? = nil,
        configuration: StubServer.Configuration? = nil, filePath: String = #filePath
    ) -> Self {
        StubServerTrait(
            fixtures: fixtures ?? "MockData", variants: variants, serverVariant: variant, unmatched: unmatched ?? .fail,
            configuration: configuration ?? StubServer.Configuration(), filePath: filePath,
            contracts: contracts ?? true,
            given: TraitSetting.given(
                fixtures: fixtures, variant: variant, unmatched: unmatched, contracts: contracts,
                configuration: configuration))
    }

    /// A stub server for each test, serving the fixtures folder at `fixtures`: a test bundle's resources, which is
    /// how fixtures reach a test on a device, where the test file's folder does not exist:
    ///
    /// ```swift
    /// // Package.swift: .testTarget(name: "AppTests", dependencies: [...], resources: [.copy("MockData")])
    /// @Suite(.stubServer(fixtures: Bundle.module.url(forResource: "MockData", withExtension: nil)!))
    /// ```
    public static func stubServer(
        fixtures: URL, variants: [String: String] = [:], variant: String? = nil,
        unmatched: UnmatchedRequests? = nil, contracts: Bool? = nil,
        configuration: StubServer.Configuration? = nil, filePath: String = #filePath
    ) -> Self {
        var trait = StubServerTrait(
            fixtures: fixtures.path, variants: variants, serverVariant: variant, unmatched: unmatched ?? .fail,
            configuration: configuration ?? StubServer.Configuration(), filePath: filePath,
            contracts: contracts ?? true,
            given: TraitSetting.given(
                fixtures: fixtures, variant: variant, unmatched: unmatched, contracts: contracts,
                configuration: configuration))
        trait.fixturesURL = fixtures
        return trait
    }
}

/// A stub server trait that could not set up its server.
public enum StubServerTestingError: Error, Equatable, CustomStringConvertible {
    case fixturesNotFound(String, from: String)
    case noCurrentServer
    /// `.remoteStubs()` was given no URL and this process has no `STUB_SERVER_URL`.
    case noRemoteURL

    public var description: String {
        switch self {
        case .fixturesNotFound(let name, let file):
            "no folder named \(name) beside \(file) or in any directory above it"
        case .noCurrentServer:
            "no stub server in this task: add .stubServer(...), .inProcessStubs(...) or .remoteStubs(...) to the test "
                + "or its suite"
        case .noRemoteURL:
            "no URL for .remoteStubs(): pass url: or set STUB_SERVER_URL (for example http://127.0.0.1:8080)"
        }
    }
}

public import Foundation
public import StubServer
public import StubServerRemote
public import Testing

extension RemoteStubs {
    /// The stubs of the running test's `.remoteStubs` trait; nil outside one.
    @TaskLocal public static var current: RemoteStubs?
}

/// Runs each test with stubs in another process (`stub-server serve` started by a script, or an app that started
/// `InProcessStubs` with a control port) as `RemoteStubs.current`: reset, given variants chosen, and strict by
/// default: a request the other process could not match fails the test, with the closest stubs.
///
/// One process's stubs have one journal and one set of choices: tests that share them must not run at once, so
/// mark their suite `.serialized`.
///
/// ```swift
/// @Suite(.serialized, .remoteStubs())   // reads STUB_SERVER_URL
/// struct CatalogUITests {
///     @Test(.remoteStubs(variants: ["top-albums": "bad"]))
///     func albumList_showsAFailure() async throws { ... }
/// }
/// ```
public struct RemoteStubsTrait: TestTrait, SuiteTrait, TestScoping, NestedTrait {
    /// The other process's base URL; `STUB_SERVER_URL` of this process's environment when nil.
    public var url: URL?
    /// Variants chosen per stub before the test runs.
    public var variants: [String: String]
    /// The server-wide variant, if any.
    public var serverVariant: String?
    public var unmatched: UnmatchedRequests
    let identity = UUID()
    var given: Set<TraitSetting> = TraitSetting.all

    public var isRecursive: Bool { true }

    /// A scope for each test case, from the trait nearest the test, with the settings of those around it (one
    /// reset and one check of the other process per test); none for suites.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : scope(for: test)
    }

    func merged(over outer: Self) -> Self {
        var merged = self
        if !given.contains(.url) { merged.url = outer.url }
        if !given.contains(.variant) { merged.serverVariant = outer.serverVariant }
        if !given.contains(.unmatched) { merged.unmatched = outer.unmatched }
        merged.variants = outer.variants.merging(variants) { _, inner in inner }
        merged.given = given.union(outer.given)
        return merged
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let remote = RemoteStubs(url: try resolvedURL())
        do {
            try await remote.reset()
            try await remote.choose(serverVariant: serverVariant, variants: variants)
        } catch {
            await remote.stop()
            throw error
        }
        let strictness = Strictness(
            unmatched: unmatched, location: test.sourceLocation,
            hint: "strict .remoteStubs: pass unmatched: .allow to permit unmatched requests")
        do {
            try await strictness.scope { try await RemoteStubs.$current.withValue(remote) { try await function() } }
        } catch {
            await strictness.check(remote)
            await remote.stop()
            throw error
        }
        await strictness.check(remote)
        await remote.stop()
    }

    func resolvedURL() throws(StubServerTestingError) -> URL {
        if let url { return url }
        guard let text = ProcessInfo.processInfo.environment[RemoteStubs.environmentKey], let url = URL(string: text)
        else {
            throw .noRemoteURL
        }
        return url
    }
}

extension Trait where Self == RemoteStubsTrait {
    /// Stubs in another process for each test, reached at `url` (`STUB_SERVER_URL` when nil), reset and given
    /// per-stub `variants` and a server-wide `variant`; what a request no stub matched does (`.fail` by default).
    /// A setting left out takes the suite's, when the suite has this trait too.
    public static func remoteStubs(
        url: URL? = nil, variants: [String: String] = [:], variant: String? = nil,
        unmatched: UnmatchedRequests? = nil
    ) -> Self {
        RemoteStubsTrait(
            url: url, variants: variants, serverVariant: variant, unmatched: unmatched ?? .fail,
            given: TraitSetting.given(url: url, variant: variant, unmatched: unmatched))
    }
}

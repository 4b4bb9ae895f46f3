package import Foundation
package import StubCore

/// What a test asks of its stubs, whatever the transport: the folder (for stubs of this process), the variants
/// chosen before it runs, contract checks, and (for another process's stubs) whether they are reset first.
package struct TestStubSettings: Sendable {
    /// The fixtures folder, resolved by the trait or starter; nil for another process's stubs.
    package var fixtures: URL?
    package var variants: [String: String]
    package var serverVariant: String?
    package var contracts: Bool
    package var reset: Bool
    /// The test, as coverage records name it (`Module.Suite/name()`); nil outside one.
    package var test: String?

    package init(
        fixtures: URL?, variants: [String: String], serverVariant: String?, contracts: Bool, reset: Bool = true,
        test: String? = nil
    ) {
        self.test = test
        self.fixtures = fixtures
        self.variants = variants
        self.serverVariant = serverVariant
        self.contracts = contracts
        self.reset = reset
    }

    /// The folder; a transport that reads fixtures is always given one.
    func folder() throws(CatalogError) -> URL {
        guard let fixtures else {
            throw CatalogError(
                root: nil, problems: [FixtureProblem(file: "", keyPath: "", message: "no fixtures folder was given")])
        }
        return fixtures
    }

    /// Chooses the variants on `stubs`, stopping them when a choice is refused.
    func apply<Stubs: StubControl>(to stubs: Stubs) async throws -> Stubs {
        do {
            try await stubs.choose(serverVariant: serverVariant, variants: variants)
        } catch {
            await stubs.stop()
            throw error
        }
        return stubs
    }
}

extension StubControl {
    /// Sets the server-wide variant when one is given (a configuration's or an app's launch variant stays
    /// otherwise), then each stub's (in name order); nothing at all when none is given, so stubs not reset are
    /// not touched (an app's control port may not listen yet).
    package func choose(serverVariant: String?, variants: [String: String]) async throws(StubServerError) {
        if let serverVariant { try await setVariant(serverVariant) }
        for (stub, variant) in variants.sorted(by: { $0.key < $1.key }) {
            try await setVariant(variant, forStub: stub)
        }
    }
}

import Foundation
import StubCore
import StubServer
public import StubServerInProcess
public import Testing

/// One mutant of a stub's variant (a hostile version of its answer, see `stub-server mutations`), as a case of a
/// parameterised test; each case gets a fresh in-process server answering that mutant.
///
/// ```swift
/// @Test(arguments: try StubMutant.all(of: "top-albums"))
/// func theAlbumList_endsReadable(_ mutant: StubMutant) async throws {
///     try await mutant.withStubs { stubs in
///         // ... give the client stubs.urlSession, load, check what the screen shows
///     }
/// }
/// ```
public struct StubMutant: Sendable, CustomTestStringConvertible {
    /// The stub whose answer is mutated.
    public let stub: String
    /// The variant whose answer is mutated.
    public let variant: String
    /// The mutant's ID, as `X-Stub-Mutation` takes it: `feed.results[*].name:null`, `status:503`.
    public let id: String
    /// What the mutant does, in one line.
    public let change: String
    private let catalog: StubCatalog

    public var testDescription: String { id }

    /// The mutants of `stub`'s `variant` in the fixtures folder `fixtures` (a path, or a folder looked for beside
    /// and above the test file, as the traits look), in their stable order.
    /// - Throws: `StubServerTestingError` when the folder is not found, `CatalogError` when it does not load,
    ///   `StubServerError` when it has no such stub or variant.
    public static func all(
        of stub: String, variant: String = "good", fixtures: String = "MockData", filePath: String = #filePath
    ) throws -> [StubMutant] {
        let catalog = try CatalogCache.catalog(of: try resolveFixtures(fixtures, url: nil, from: filePath))
        return try catalog.variant(variant, ofStub: stub).mutants.map {
            StubMutant(stub: stub, variant: variant, id: $0.id, change: $0.description, catalog: catalog)
        }
    }

    /// Runs `body` with a fresh in-process server of the whole catalog whose `stub` answers this mutant of its
    /// `variant`; the server stops when `body` returns or throws. Unmatched requests are allowed: a mutant can send
    /// the client where no stub answers.
    public func withStubs<T>(
        configuration: InProcessStubs.Configuration = InProcessStubs.Configuration(),
        isolation: isolated (any Actor)? = #isolation, _ body: (InProcessStubs) async throws -> T
    ) async throws -> T {
        let stubs = InProcessStubs.start(catalog: catalog, configuration: configuration)
        do {
            if variant != "good" { try stubs.setVariant(variant, forStub: stub) }
            try stubs.setMutation(id, forStub: stub)
            let result = try await body(stubs)
            await stubs.stop()
            return result
        } catch {
            await stubs.stop()
            throw error
        }
    }
}

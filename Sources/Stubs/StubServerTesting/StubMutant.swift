import Foundation
import StubCore
import StubHarness
public import StubServer
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
///
/// A mutant is `Codable`, so an exit test can capture it (Swift 6.3 and later) and run the app's code for it in a
/// child process: see `exitAfter(within:_:)`.
public struct StubMutant: Sendable, Codable, CustomTestStringConvertible {
    /// The stub whose answer is mutated.
    public let stub: String
    /// The variant whose answer is mutated.
    public let variant: String
    /// The mutant's ID, as `X-Stub-Mutation` takes it: `feed.results[*].name:null`, `status:503`.
    public let id: String
    /// What the mutant does, in one line.
    public let change: String
    /// The fixtures folder the mutant's stub comes from.
    private let fixtures: URL
    private let catalog: StubCatalog
    /// The test that encoded the mutant for an exit test, as coverage records name it: in the child process no test
    /// is current, so the records of its answers take this name.
    private var encodingTest: String?

    public var testDescription: String { id }

    /// The mutants of `stub`'s `variant` in the fixtures folder `fixtures` (a path, or a folder looked for beside
    /// and above the test file, as the traits look), in their stable order.
    /// - Throws: `StubServerTestingError` when the folder is not found, `CatalogError` when it does not load,
    ///   `StubServerError` when it has no such stub or variant.
    public static func all(
        of stub: String, variant: String = "good", fixtures: String = "MockData", filePath: String = #filePath
    ) throws -> [StubMutant] {
        let folder = try resolveFixtures(fixtures, url: nil, from: filePath)
        let catalog = try CatalogCache.catalog(of: folder)
        return try catalog.existingVariant(variant, ofStub: stub).mutants.map {
            StubMutant(
                stub: stub, variant: variant, id: $0.id, change: $0.description, fixtures: folder, catalog: catalog)
        }
    }

    private init(stub: String, variant: String, id: String, change: String, fixtures: URL, catalog: StubCatalog) {
        (self.stub, self.variant, self.id, self.change) = (stub, variant, id, change)
        (self.fixtures, self.catalog) = (fixtures, catalog)
    }

    private enum CodingKeys: String, CodingKey {
        case stub, variant, id, change, fixtures, test
    }

    /// Reads a mutant written by `encode(to:)`, loading its fixtures folder again (once per process and folder).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let fixtures = URL(fileURLWithPath: try container.decode(String.self, forKey: .fixtures))
        try self.init(
            stub: container.decode(String.self, forKey: .stub),
            variant: container.decode(String.self, forKey: .variant),
            id: container.decode(String.self, forKey: .id), change: container.decode(String.self, forKey: .change),
            fixtures: fixtures, catalog: CatalogCache.catalog(of: fixtures))
        encodingTest = try container.decodeIfPresent(String.self, forKey: .test)
    }

    /// Writes the mutant's stub, variant, ID, description and fixtures folder (not the catalog), and the test
    /// encoding it (an exit test capturing it), for the coverage records of the child process.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(stub, forKey: .stub)
        try container.encode(variant, forKey: .variant)
        try container.encode(id, forKey: .id)
        try container.encode(change, forKey: .change)
        try container.encode(fixtures.path, forKey: .fixtures)
        try container.encodeIfPresent(
            encodingTest ?? Test.current.map(StubServerTrait.coverageName(of:)), forKey: .test)
    }

    /// Runs `body` with a fresh in-process server of the whole catalog whose `stub` answers this mutant of its
    /// `variant`; the server stops when `body` returns or throws. Unmatched requests are allowed: a mutant can send
    /// the client where no stub answers.
    public func withStubs<T>(
        configuration: InProcessStubs.Configuration = InProcessStubs.Configuration(),
        isolation: isolated (any Actor)? = #isolation, _ body: (InProcessStubs) async throws -> T
    ) async throws -> T {
        let stubs = InProcessStubs.start(catalog: catalog, configuration: configuration)
        stubs.runtime.recordCoverage(as: Test.current.map(StubServerTrait.coverageName(of:)) ?? encodingTest)
        return try await serving(stubs, body)
    }

    /// Runs `body` with a fresh server of the whole catalog on a loopback port, whose `stub` answers this mutant of
    /// its `variant`: for a WebSocket's mutants, which only a socket can answer, or a client that needs a real
    /// connection. The server stops when `body` returns or throws; unmatched requests are allowed.
    public func withServer<T>(
        configuration: StubServer.Configuration = StubServer.Configuration(),
        isolation: isolated (any Actor)? = #isolation, _ body: (StubServer) async throws -> T
    ) async throws -> T {
        let server = try StubServer.start(catalog: catalog, configuration: configuration)
        server.runtime.recordCoverage(as: Test.current.map(StubServerTrait.coverageName(of:)) ?? encodingTest)
        return try await serving(server, body)
    }

    /// Runs `body` with `stubs` answering this mutant, then stops them.
    private func serving<Stubs: LocalStubControl, T>(
        _ stubs: Stubs, isolation: isolated (any Actor)? = #isolation, _ body: (Stubs) async throws -> T
    ) async throws -> T {
        do {
            if variant != "good" { try await stubs.setVariant(variant, forStub: stub) }
            try await stubs.setMutation(id, forStub: stub)
            let result = try await body(stubs)
            await stubs.stop()
            return result
        } catch {
            await stubs.stop()
            throw error
        }
    }
}

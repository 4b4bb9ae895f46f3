import Foundation
import StubServer
import StubServerInProcess
import StubServerTesting
import Testing

/// The spellings from before the transport was a parameter: each is the one trait with its transport, and starts
/// the stubs that spelling always started. (Deprecated itself, so that using them here is not a warning.)
@Suite(.timeLimit(.minutes(1)))
struct DeprecatedTraitTests {
    @available(*, deprecated)
    static let spellings: [(trait: StubServerTrait, transport: String)] = [
        (.inProcessStubs(variants: ["top-albums": "bad"]), "in process"),
        (.inProcessStubs(fixtures: URL(fileURLWithPath: "/tmp")), "in process"),
        (.remoteStubs(url: URL(string: "http://127.0.0.1:1")), "remote"),
        (.stubServer(configuration: StubServer.Configuration(journalCapacity: 5)), "socket"),
        (.stubServer(fixtures: URL(fileURLWithPath: "/tmp"), configuration: StubServer.Configuration()), "socket"),
    ]

    @available(*, deprecated)
    @Test func eachOldSpelling_isTheOneTraitWithItsTransport() {
        for (trait, transport) in Self.spellings {
            #expect(trait.transport.name == transport)
            // Given explicitly: a trait of the new spelling on one of its tests keeps the transport.
            #expect(!trait.transport.isDefault)
        }
    }

    @available(*, deprecated)
    @Test func theInProcessSpelling_startsInProcessStubsWithItsVariants() async throws {
        let test = try #require(Test.current)
        try await InProcessStubsTrait.inProcessStubs(variants: ["top-albums": "bad"]).provideScope(
            for: test, testCase: Test.Case.current
        ) {
            #expect(StubServer.current == nil)
            let stubs = try InProcessStubs.required()
            #expect(stubs.variant(forStub: "top-albums") == "bad")
        }
    }
}

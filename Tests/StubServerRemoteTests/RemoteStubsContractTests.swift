import Foundation
import StubCore
import StubServer
import StubServerRemote
import StubTestSupport
import TestTurns
import Testing

/// `RemoteStubs` over a server's admin API, against the server's own answers: each control operation reaches the
/// endpoint the contract names, and a refusal comes back as the error the
/// server threw.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct RemoteStubsContractTests {
    static let name = "top-albums.v2_x"

    static func fixtures() throws -> TemporaryFixtures {
        try TemporaryFixtures([
            "api/stubs.json": #"""
            {"stubs": [{"name": "top-albums.v2_x", "request": {"path": "/albums"},
              "variants": {"good": {"body": "{\"feed\": {\"name\": \"x\"}}"}, "bad": {"body": "{"},
                "nil": {"body": ""}}}]}
            """#
        ])
    }

    @Test func eachOperation_doesWhatTheLocalOneDoes() async throws {
        let fixtures = try Self.fixtures()
        defer { fixtures.remove() }
        try await withStubServer(fixtures: fixtures.root) { server in
            let remote = RemoteStubs(url: server.baseURL)
            defer { Task { await remote.stop() } }
            try await remote.setVariant("bad", forStub: Self.name)
            #expect(server.variant(forStub: Self.name) == "bad")
            #expect(try await remote.variant(forStub: Self.name) == "bad")
            try await remote.setVariant(nil, forStub: Self.name)
            #expect(server.variant(forStub: Self.name) == nil)
            try await remote.setVariant("nil")
            #expect(try await remote.serverVariant == "nil" && server.serverVariant == "nil")
            try await remote.setVariant(nil)
            #expect(server.serverVariant == nil)
            let mutant = try #require(server.catalog.stubs.first?.variants["good"]?.mutants.first?.id)
            try await remote.setMutation(mutant, forStub: Self.name)
            #expect(try await remote.mutation(forStub: Self.name) == mutant)
            try await remote.setMutation(nil, forStub: Self.name)
            #expect(server.mutation(forStub: Self.name) == nil)
            _ = try await get("/albums", from: server)
            _ = try await get("/nowhere", from: server)
            #expect(try await remote.requestCount(JournalQuery(stub: Self.name)) == 1)
            #expect(try await remote.journal().map(\.path) == server.journal(JournalQuery()).map(\.path))
            #expect(try await remote.unmatchedRequests().map(\.path) == ["/nowhere"])
            try await remote.clearJournal()
            #expect(server.requestCount() == 0)
            try server.setVariant("bad", forStub: Self.name)
            try await remote.reset()
            #expect(server.variant(forStub: Self.name) == nil)
            #expect(try await remote.scenarios == [:])
        }
    }

    @Test func aRefusal_isTheErrorTheServerThrew() async throws {
        let fixtures = try Self.fixtures()
        defer { fixtures.remove() }
        try await withStubServer(fixtures: fixtures.root) { server in
            let remote = RemoteStubs(url: server.baseURL)
            defer { Task { await remote.stop() } }
            await #expect(throws: StubServerError.unknownStub("nope", known: [Self.name])) {
                try await remote.setVariant("bad", forStub: "nope")
            }
            await #expect(throws: StubServerError.unknownStub("nope", known: [Self.name])) {
                try await remote.variant(forStub: "nope")
            }
            await #expect(throws: (any Error).self) {
                try await remote.setVariant("no-such-variant", forStub: Self.name)
            }
        }
    }
}

import Foundation
import HTTPMessages
import StubMutations
import StubServer
import StubServerInProcess
import StubTestSupport
import TestTurns
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Mutants served through the one exchange both transports share: `X-Stub-Mutation: ID` answers that mutant of the
/// variant the request would get, with the same bytes over the socket and in process, and the journal says which.
@Suite(.takesTurns(.heavy), .timeLimit(.minutes(1)))
struct MutationServingTests {
    static let host = URL(string: "https://api.example.com")!
    static let body = #"{"items":[{"id":7,"name":"Harbor","url":"https://a.example/7","released":"2024-05-17"}]}"#

    static let xmlBody = #"<?xml version="1.0"?><feed><entry><title>Harbor</title><link href="a"/></entry></feed>"#

    static func withStubs<T>(
        _ transport: Transport, body answer: String = Self.body, contentType: String = "application/json",
        _ body: (Stubs) async throws -> T
    ) async throws -> T {
        let fixtures = try TemporaryFixtures([
            "api/stubs.json": #"""
            { "hosts": ["api.example.com"], "stubs": [
              { "name": "items", "request": { "path": "/items" },
                "variants": { "good": { "headers": { "Content-Type": "\#(contentType)" }, "bodyFile": "items.json" },
                              "bad": { "body": "{" }, "nil": { "body": "" } } } ] }
            """#,
            "api/items.json": answer,
        ])
        defer { fixtures.remove() }
        return try await Stubs.with(transport, fixtures: fixtures.root, realHost: host, body)
    }

    static func fetch(_ stubs: Stubs, mutation: String?, session: URLSession? = nil) async throws
        -> (status: Int, body: [UInt8])
    {
        var request = URLRequest(url: URL(string: stubs.baseURL.absoluteString + "/items")!)
        request.timeoutInterval = 5
        if let mutation { request.setValue(mutation, forHTTPHeaderField: "X-Stub-Mutation") }
        let session = session ?? URLSession(configuration: stubs.configuration)
        let (data, response) = try await session.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, Array(data))
    }

    /// Every element mutant of an XML answer, over each transport: the bytes `Mutations` makes.
    @Test(arguments: Transport.allCases)
    func everyXMLMutant_isAnsweredWithItsBytes(_ transport: Transport) async throws {
        let good = MutableAnswer(
            status: 200, headers: HTTPHeaders([("Content-Type", "application/xml")]), body: Array(Self.xmlBody.utf8))
        let mutants = Mutations.of(good).filter { $0.id.hasPrefix("/") }
        #expect(mutants.map(\.id).contains("/feed/entry/title:text-empty"))
        try await Self.withStubs(transport, body: Self.xmlBody, contentType: "application/xml") { stubs in
            let session = URLSession(configuration: stubs.configuration)
            defer { session.invalidateAndCancel() }
            for mutant in mutants {
                guard case .answer(let expected) = mutant.apply(to: good) else { continue }
                let fetched = try await Self.fetch(stubs, mutation: mutant.id, session: session)
                #expect(fetched.status == 200, "\(mutant.id)")
                #expect(fetched.body == expected.body, "\(mutant.id)")
            }
        }
    }

    /// Every mutant that answers with bytes (not a fault, not past the timeout), over each transport: the bytes
    /// `Mutations` makes, the journal naming the mutant and the status sent.
    @Test(arguments: Transport.allCases)
    func everyMutantID_isAnsweredWithItsBytes_andJournaled(_ transport: Transport) async throws {
        let good = MutableAnswer(
            status: 200, headers: HTTPHeaders([("Content-Type", "application/json")]), body: Array(Self.body.utf8))
        let mutants = Mutations.of(good).filter { !$0.id.hasPrefix("fault:") && !$0.id.hasPrefix("delay:") }
        #expect(mutants.count > 60)
        try await Self.withStubs(transport) { stubs in
            let session = URLSession(configuration: stubs.configuration)
            defer { session.invalidateAndCancel() }
            for mutant in mutants {
                guard case .answer(let expected) = mutant.apply(to: good) else { continue }
                let fetched = try await Self.fetch(stubs, mutation: mutant.id, session: session)
                #expect(fetched.status == expected.status, "\(mutant.id)")
                #expect(fetched.body == expected.body, "\(mutant.id)")
            }
            let journal = try await stubs.server.journal(JournalQuery(stub: "items"))
            #expect(journal.map(\.mutation) == mutants.map(\.id))
            #expect(journal.first { $0.mutation == "status:503" }?.status == 503)
        }
    }

    @Test(arguments: Transport.allCases)
    func anIDTheVariantLacks_is400NamingTheClosest(_ transport: Transport) async throws {
        try await Self.withStubs(transport) { stubs in
            let fetched = try await Self.fetch(stubs, mutation: "items[*].nam:null")
            let text = String(decoding: fetched.body, as: UTF8.self)
            #expect(fetched.status == 400)
            #expect(text.contains(#"no mutant \"items[*].nam:null\""#), "\(text)")
            #expect(text.contains("items[*].name:null"), "the nearest IDs: \(text)")
            #expect(try await Self.fetch(stubs, mutation: nil).body == Array(Self.body.utf8), "no header: the variant")
        }
    }

    /// A stub's chosen mutant answers every request to it; a request's own header wins; nil stops it.
    @Test(arguments: Transport.allCases)
    func aStubsChosenMutant_answersEveryRequest_andTheHeaderWins(_ transport: Transport) async throws {
        try await Self.withStubs(transport) { stubs in
            try await stubs.server.setMutation("status:503", forStub: "items")
            #expect(try await stubs.server.mutation(forStub: "items") == "status:503")
            #expect(try await Self.fetch(stubs, mutation: nil).status == 503)
            #expect(try await Self.fetch(stubs, mutation: "status:404").status == 404, "the request's header wins")
            try await stubs.server.setMutation(nil, forStub: "items")
            #expect(try await Self.fetch(stubs, mutation: nil).status == 200)
            #expect(
                try await stubs.server.journal(JournalQuery(stub: "items")).map(\.mutation) == [
                    "status:503", "status:404", nil,
                ])
            await #expect(throws: StubServerError.unknownStub("nope", known: ["items"])) {
                try await stubs.server.setMutation("status:503", forStub: "nope")
            }
        }
    }

    /// An ID no variant of the stub has is refused when it is chosen, naming the nearest, as the header refuses it;
    /// the choice before it stays. (It used to be taken, and every later request answered 400.)
    @Test(arguments: Transport.allCases)
    func anUnknownMutant_isRefusedWhenChosen(_ transport: Transport) async throws {
        try await Self.withStubs(transport) { stubs in
            try await stubs.server.setMutation("status:503", forStub: "items")
            await #expect {
                try await stubs.server.setMutation("items[*].nam:null", forStub: "items")
            } throws: { error in
                guard case .unknownMutant("items[*].nam:null", "items", let closest) = error as? StubServerError
                else { return false }
                return closest.contains("items[*].name:null")
            }
            #expect(try await stubs.server.mutation(forStub: "items") == "status:503")
            #expect(try await Self.fetch(stubs, mutation: nil).status == 503)
        }
    }

    /// The admin API chooses and clears a stub's mutant, and lists the choice with the stubs.
    @Test func theAdminAPI_choosesAndClearsAStubsMutant() async throws {
        try await Self.withStubs(.socket) { stubs in
            func admin(_ method: String, _ body: String = "") async throws -> Int {
                var request = URLRequest(url: stubs.baseURL.appendingPathComponent("__stub/stubs/items/mutation"))
                request.httpMethod = method
                request.httpBody = Data(body.utf8)
                let (_, response) = try await URLSession(configuration: stubs.configuration).data(for: request)
                return (response as? HTTPURLResponse)?.statusCode ?? 0
            }
            #expect(try await admin("PUT", #"{"mutation": "body:html-error-page"}"#) == 200)
            let page = try await Self.fetch(stubs, mutation: nil)
            #expect(page.status == 200 && String(decoding: page.body, as: UTF8.self).hasPrefix("<!DOCTYPE html>"))
            #expect(try await admin("DELETE") == 200)
            #expect(try await Self.fetch(stubs, mutation: nil).body == Array(Self.body.utf8))
            #expect(try await admin("PUT", #"{"mutation": "no-such:mutant"}"#) == 400)
            #expect(try await Self.fetch(stubs, mutation: nil).status == 200, "the refused ID was not taken")
        }
    }
}

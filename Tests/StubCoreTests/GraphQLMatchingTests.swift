import Foundation
import HTTPMessages
import TestTurns
import Testing

@testable import StubCore

/// GraphQL operations matched by name, variables, query text and persisted-query hash, on MockData's graphql folder.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct GraphQLMatchingTests {
    static func decide(_ request: Request) throws -> (StubDecision, JournalEntry?) {
        let catalog = try StubCatalog.load(from: try #require(StubCatalog.findFolder()))
        var state = StubState(catalog: catalog, journal: RequestJournal(capacity: 8))
        let decision = state.decide(request)
        return (decision, state.journal.entries(matching: JournalQuery()).last)
    }

    static func post(_ body: String) throws -> Request {
        try Request(method: "POST", target: "/graphql", body: Array(body.utf8))
    }

    @Test(arguments: [
        (
            #"{"query": "query TopAlbums { topAlbums { id } }", "operationName": "TopAlbums", "variables": {"limit": 2}}"#,
            "top-albums-query"
        ),
        (#"{"operationName": "Album", "variables": {"id": "1600000001", "extra": true}}"#, "album-query"),
        (
            #"[{"operationName": "Album", "variables": {"id": "1600000001"}}, {"operationName": "Album", "variables": {"id": "1600000001"}}]"#,
            "album-query"
        ),
    ])
    func anOperation_matchesItsStub(_ body: String, stub: String) throws {
        let (decision, entry) = try Self.decide(Self.post(body))
        #expect(decision.stubName == stub)
        #expect(entry?.operationName?.isEmpty == false)
    }

    @Test func anotherOperationName_isUnmatched_andTheNearMissNamesIt() throws {
        let (decision, entry) = try Self.decide(Self.post(#"{"operationName": "Y", "variables": {"limit": 2}}"#))
        guard case .unmatched(let closest) = decision.outcome else {
            Issue.record("expected no match, got \(decision.outcome)")
            return
        }
        let first = try #require(closest.first)
        #expect(first.stub == "top-albums-query")
        #expect(first.mismatches == [.init(field: "graphql.operationName", expected: "\"TopAlbums\"", actual: "\"Y\"")])
        #expect(entry?.operationName == "Y")
    }

    @Test func variablesThatDiffer_areNamedByPath() throws {
        let (decision, _) = try Self.decide(Self.post(#"{"operationName": "Album", "variables": {"id": "7"}}"#))
        guard case .unmatched(let closest) = decision.outcome else {
            Issue.record("expected no match, got \(decision.outcome)")
            return
        }
        #expect(
            closest.first?.mismatches == [
                .init(field: "graphql.variables.id", expected: "\"1600000001\"", actual: "\"7\"")
            ])
    }

    @Test func aBatch_matchesOnlyWhenEveryOperationDoes() throws {
        let body = #"[{"operationName": "Album", "variables": {"id": "1600000001"}}, {"operationName": "Other"}]"#
        #expect(try Self.decide(Self.post(body)).0.stubName == nil)
    }

    @Test func aGETOperation_andAPersistedQueryHash_areRead() throws {
        let target =
            "/graphql?operationName=Album&variables=%7B%22id%22%3A%227%22%7D"
            + "&extensions=%7B%22persistedQuery%22%3A%7B%22sha256Hash%22%3A%22abc%22%7D%7D"
        let request = try Request(method: "GET", target: target)
        let operations = GraphQLOperation.all(in: request, body: RequestBody([]))
        #expect(
            operations == [
                GraphQLOperation(
                    operationName: "Album", query: nil, variables: .object(["id": .string("7")]),
                    persistedQueryHash: "abc")
            ])
        let matcher = GraphQLMatcher(persistedQuery: .exact("abd"))
        #expect(
            matcher.mismatches(of: request, body: RequestBody([]))
                == [.init(field: "graphql.persistedQuery", expected: "\"abd\"", actual: "\"abc\"")])
    }

    @Test func aRequestWithoutAnOperation_missesAGraphQLStub() throws {
        let matcher = GraphQLMatcher(operationName: .exact("Album"))
        let request = try Self.post(#"{"unrelated": 1}"#)
        #expect(
            matcher.mismatches(of: request, body: RequestBody(request.body))
                == [.init(field: "graphql", expected: "a GraphQL operation", actual: "none in the request")])
    }
}

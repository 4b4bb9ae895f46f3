import Foundation
import StubServer
import TestTurns
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// MockData's GraphQL API through URLSession over both transports: operations told apart by name and variables,
/// GraphQL errors as the API sends them, and a near miss that names the operation.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct GraphQLEndToEndTests {
    static let host = URL(string: "https://graphql.catalog.test")!

    static func post(_ stubs: Stubs, _ operation: [String: Any]) async throws -> (Int?, [String: Any]) {
        var request = URLRequest(url: stubs.baseURL.appendingPathComponent("graphql"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: operation)
        let (data, response) = try await URLSession(configuration: stubs.configuration).data(for: request)
        let object = (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
        return ((response as? HTTPURLResponse)?.statusCode, object)
    }

    @Test(arguments: Transport.allCases)
    func anOperation_getsItsAnswer_andAnotherNameIsANearMiss(_ transport: Transport) async throws {
        try await Stubs.with(transport, realHost: Self.host) { stubs in
            let query = "query TopAlbums($limit: Int!) { topAlbums(limit: $limit) { id name } }"
            let (status, body) = try await Self.post(
                stubs, ["query": query, "operationName": "TopAlbums", "variables": ["limit": 2]])
            #expect(status == 200)
            let albums = ((body["data"] as? [String: Any])?["topAlbums"] as? [[String: Any]]) ?? []
            #expect(albums.map { $0["name"] as? String } == ["Golden Hour", "Night Drive"])

            try await stubs.server.setVariant("errors", forStub: "top-albums-query")
            let (_, failed) = try await Self.post(stubs, ["operationName": "TopAlbums", "variables": ["limit": 2]])
            let error = try #require((failed["errors"] as? [[String: Any]])?.first)
            #expect(error["path"] as? [String] == ["topAlbums"])
            #expect((error["extensions"] as? [String: Any])?["code"] as? String == "RATE_LIMITED")

            let (missStatus, miss) = try await Self.post(stubs, ["operationName": "Y", "variables": ["limit": 2]])
            #expect(missStatus == 404)
            let closest = try #require((miss["closest"] as? [[String: Any]])?.first)
            #expect(closest["stub"] as? String == "top-albums-query")
            #expect(
                closest["mismatches"] as? [[String: String]] == [
                    ["field": "graphql.operationName", "expected": "\"TopAlbums\"", "actual": "\"Y\""]
                ])
            #expect(
                try await stubs.server.journal(JournalQuery(method: "POST")).map(\.operationName) == [
                    "TopAlbums", "TopAlbums", "Y",
                ])
        }
    }
}

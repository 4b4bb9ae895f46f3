import Foundation
import HTTPMessages
import StubAdmin
import StubCore
import StubTestSupport
import TestTurns
import Testing

/// The admin contract, written once (`AdminEndpoint`): the server answers every endpoint of it, and the reference a
/// user reads lists every one and no other.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct AdminContractTests {
    /// The routes the DocC article's table lists, as `METHOD|METHOD /__stub/path` with `NAME` as `{name}`.
    static func documentedRoutes() throws -> [String] {
        let article = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/Stubs/StubServer/StubServer.docc/AdminAPI.md")
        let text = try String(contentsOf: article, encoding: .utf8)
        return text.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("| `") else { return nil }
            let cell = line.dropFirst(3).prefix { $0 != "`" }
            return cell.replacingOccurrences(of: "\\|", with: "|").replacingOccurrences(of: "NAME", with: "{name}")
        }
    }

    @Test func theReference_listsEveryEndpoint_andNoOther() throws {
        let documented = try Self.documentedRoutes()
        let routes = AdminEndpoint.allCases.map(\.route)
        #expect(Set(routes).subtracting(documented).sorted() == [], "endpoints missing from AdminAPI.md")
        #expect(Set(documented).subtracting(routes).sorted() == [], "AdminAPI.md lists what is no endpoint")
        #expect(documented.count == routes.count, "each listed once")
    }

    @Test func theIndex_listsTheContractsRoutes() async throws {
        try await withTestServer { server, _ in
            let answer = try await get("/__stub", from: server)
            let index = try JSONDecoder().decode(AdminBody.Index.self, from: Data(answer.body))
            #expect(index.endpoints == AdminEndpoint.allCases.map(\.route))
        }
    }

    /// Every endpoint of the contract is routed: none answers that it is not an admin endpoint.
    @Test(arguments: AdminEndpoint.allCases)
    func eachEndpoint_isAnswered(_ endpoint: AdminEndpoint) async throws {
        try await withTestServer { server, _ in
            for method in endpoint.methods {
                let answer = try await exchange(
                    server,
                    "\(method) \(endpoint.path("search")) HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n"
                        + "Connection: close\r\n\r\n")
                let text = String(decoding: answer.body, as: UTF8.self)
                #expect(!text.contains("is not an admin endpoint"), "\(method) \(endpoint.path): \(text)")
                #expect(answer.status != 404 || text.contains("\"kind\""), "\(method) \(endpoint.path): \(text)")
            }
        }
    }

    @Test(arguments: [
        ("top-albums", "/__stub/stubs/top-albums/variant"), ("a/b", "/__stub/stubs/a%2Fb/variant"),
        ("a b?#%", "/__stub/stubs/a%20b%3F%23%25/variant"), ("é", "/__stub/stubs/%C3%A9/variant"),
    ])
    func aName_isOnePathSegment(_ name: String, _ path: String) {
        #expect(AdminEndpoint.setStubVariant.path(name) == path)
    }
}

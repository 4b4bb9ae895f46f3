import Foundation
import StubTestSupport
import TestTurns
import Testing

@testable import StubCore
@testable import StubServer

/// Every answer framed as RFC 9110 (8.6, 9.3.2) and RFC 9112 (6.3) say, read off the wire: no `Content-Length`,
/// `Transfer-Encoding` or content on 1xx, 204 and 304; no `Content-Type` made up for an empty body; a `HEAD` answer
/// with its `GET`'s fields and nothing after them. Each request is followed on the same connection by another,
/// whose answer must start right where the first one's framing says it ends.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct AnswerFramingTests {
    static let statuses = [100, 103, 199, 200, 201, 204, 205, 206, 304, 400, 404, 500, 503]

    static let stubs: String = {
        let statusStubs = statuses.map { code in
            #"{"name": "s\#(code)", "request": {"path": "/s/\#(code)"}, "variants": {"good": {"status": \#(code), "headers": {"Content-Type": "text/plain"}, "body": "body"}, "empty": {"status": \#(code)}, "bad": {"status": \#(code), "body": "{"}, "nil": {"status": \#(code)}}}"#
        }
        return #"""
            {"stubs": [
              \#(statusStubs.joined(separator: ",\n"))
              ,{"name": "json", "request": {"path": "/json"}, "variants": {"good": {"headers": {"Content-Type": "application/json"}, "body": "{\"a\": 1}"}, "bad": {"body": "{"}, "nil": {"body": ""}}}
              ,{"name": "events", "request": {"path": "/events"}, "variants": {"good": {"events": [{"data": "one"}, {"data": "two", "delayMs": 10}]}, "bad": {"events": [{"data": "{"}]}, "nil": {"body": ""}}}
              ,{"name": "after", "request": {"path": "/after"}, "variants": {"good": {"body": "after"}, "bad": {"body": "{"}, "nil": {"body": ""}}}
            ]}
            """#
    }()

    /// What came back for `request` followed by `GET /after`: the first answer's head, and the bytes after it.
    private func answerAndRest(_ server: StubServer, _ request: String) async throws -> (RawResponse, String) {
        let client = try await RawHTTPClient(port: server.port)
        try await client.send(request + get("/after", "Connection: close\r\n"))
        let wire = String(decoding: try await client.readUntilClosed(), as: UTF8.self)
        let end = try #require(wire.range(of: "\r\n\r\n"), "a whole head in \(wire.debugDescription)")
        return (try RawResponse(head: String(wire[..<end.upperBound])), String(wire[end.upperBound...]))
    }

    /// Checks the framing of `head`, the answer to `method`, followed by `rest` on the wire.
    private func expectFramed(_ head: RawResponse, method: String, rest: String, _ comment: Comment) {
        let bodiless = head.status < 200 || head.status == 204 || head.status == 304
        if bodiless {
            #expect(head.header("Content-Length") == nil, "\(comment)")
            #expect(head.header("Transfer-Encoding") == nil, "\(comment)")
        } else {
            #expect((head.header("Content-Length") == nil) != (head.header("Transfer-Encoding") == nil), "\(comment)")
        }
        if head.header("Content-Length") == "0" || (bodiless && head.header("Content-Type") == nil) {
            #expect(head.header("Content-Type") == nil, "no type made up for an empty body: \(comment)")
        }
        let length = Int(head.header("Content-Length") ?? "0") ?? -1
        let bodyLength = method == "HEAD" || bodiless || head.header("Transfer-Encoding") != nil ? 0 : length
        if head.header("Transfer-Encoding") == nil || method == "HEAD" {
            #expect(
                rest.dropFirst(bodyLength).hasPrefix("HTTP/1.1 200 OK\r\n"),
                "the next answer starts where this one ends: \(comment), then \(rest.prefix(80).debugDescription)")
        }
    }

    @Test(arguments: statuses)
    func aStubsStatus_isFramedAsTheRFCsSay(code: Int) async throws {
        try await withServer(stubs: Self.stubs) { server in
            for variant in ["good", "empty"] {
                let (head, rest) = try await answerAndRest(server, get("/s/\(code)", "X-Stub-Variant: \(variant)\r\n"))
                #expect(head.status == code)
                expectFramed(head, method: "GET", rest: rest, "\(code) \(variant)")
                let allowsContent = code >= 200 && code != 204 && code != 304
                if allowsContent {
                    #expect(head.header("Content-Length") == (variant == "good" ? "4" : "0"))
                    #expect(rest.hasPrefix(variant == "good" ? "body" : "HTTP/1.1 200"))
                }
            }
        }
    }

    @Test(arguments: statuses.map { "/s/\($0)" } + ["/json", "/events", "/nowhere", "/__stub/health", "/__stub/stubs"])
    func aHeadAnswer_hasItsGetsFields_andNoContent(path: String) async throws {
        try await withServer(stubs: Self.stubs) { server in
            let (getHead, _) = try await answerAndRest(server, get(path))
            let (head, rest) = try await answerAndRest(server, "HEAD \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
            let fields = { (response: RawResponse) in
                response.headers.filter { $0.name != "Date" }.map { "\($0.name): \($0.value)" }
            }
            #expect(head.statusLine == getHead.statusLine)
            if path != "/nowhere" {  // a miss's explanation names the method, HEAD or GET, so its length differs
                #expect(fields(head) == fields(getHead))
            }
            expectFramed(head, method: "HEAD", rest: rest, "HEAD \(path)")
        }
    }

    @Test(arguments: ["/json", "/events"])
    func theNoContentMutant_carriesNoLengthOrType(path: String) async throws {
        try await withServer(stubs: Self.stubs) { server in
            let (head, rest) = try await answerAndRest(server, get(path, "X-Stub-Mutation: status:204\r\n"))
            #expect(head.status == 204)
            #expect(head.header("Content-Type") == nil)
            expectFramed(head, method: "GET", rest: rest, "status:204 of \(path)")
        }
    }

    @Test(arguments: ["/__stub/health", "/__stub/stubs", "/__stub/journal", "/__stub/nothing-here"])
    func theAdminAPI_isFramedAsTheRFCsSay(path: String) async throws {
        try await withServer(stubs: Self.stubs) { server in
            let (head, rest) = try await answerAndRest(server, get(path))
            expectFramed(head, method: "GET", rest: rest, "GET \(path)")
        }
    }
}

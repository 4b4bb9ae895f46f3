import HTTPMessages
import TestTurns
import Testing

@testable import HTTPEngine

@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct RequestDecoderTests {
    private func decode(_ text: String) -> DecodeOutcome {
        DecodeOutcome.decode(text)
    }

    private func request(_ text: String) throws -> Request {
        let outcome = decode(text)
        if let error = outcome.error { throw error }
        return try #require(outcome.requests.first, "\(outcome)")
    }

    @Test func head_readsRequestLineAndFields() throws {
        let parsed = try request("GET /search?term=a HTTP/1.1\r\nHost: x\r\nAccept:  application/json \r\n\r\n")
        #expect(parsed.method == "GET")
        #expect(parsed.target == "/search?term=a")
        #expect(parsed.minorVersion == 1)
        #expect(parsed.headers["accept"] == "application/json")
        #expect(parsed.body.isEmpty)
    }

    @Test(arguments: [
        ("GET /\r\nHost: x\r\n\r\n", 400, "malformed request line"),
        ("GET  / HTTP/1.1\r\nHost: x\r\n\r\n", 400, "malformed request line"),
        ("G(T / HTTP/1.1\r\nHost: x\r\n\r\n", 400, "invalid method"),
        ("GET / HTTP/2.0\r\nHost: x\r\n\r\n", 505, "HTTP/2.0 is not supported"),
        ("GET / HTTX/1.1\r\nHost: x\r\n\r\n", 400, "malformed HTTP version"),
        ("GET / HTTP/1.1\r\n\r\n", 400, "missing Host header"),
        ("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400, "more than one Host header"),
        ("GET / HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n", 400, "obsolete line folding"),
        ("GET / HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n", 400, "header line without a colon"),
        ("GET / HTTP/1.1\r\nHost: x\r\nBad Name: v\r\n\r\n", 400, "invalid header name"),
        ("GET / HTTP/1.1\r\nHost: x\r\nName : v\r\n\r\n", 400, "invalid header name"),
        ("GET / HTTP/1.1\r\nHost: x\r\nX: a\u{01}b\r\n\r\n", 400, "control character"),
        (
            "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n", 400,
            "both Transfer-Encoding"
        ),
        ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n", 400, "invalid Content-Length"),
        ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: +1\r\n\r\n", 400, "invalid Content-Length"),
        ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", 400, "invalid Content-Length"),
        ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 101\r\n\r\n", 413, "exceeds the limit of 100 bytes"),
        ("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", 501, "unsupported Transfer-Encoding gzip"),
        ("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", 400, "Transfer-Encoding in an HTTP/1.0 request"),
        ("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n", 501, "CONNECT is not supported"),
        ("GET * HTTP/1.1\r\nHost: x\r\n\r\n", 400, "only allowed with OPTIONS"),
    ])
    func head_rejectsMalformedInput(_ text: String, status: Int, message: String) {
        let outcome = decode(text)
        #expect(outcome.error?.status.code == status, "\(outcome)")
        #expect(outcome.error?.message.contains(message) == true, "\(outcome)")
    }

    /// Line endings: RFC 9112 allows a recipient to accept a bare LF; this server does not, because a front end
    /// that reads the line differently could be smuggled a second request past it.
    @Test(arguments: [
        ("GET / HTTP/1.0\nUser-Agent: t\n\n", "bare LF"),
        ("GET / HTTP/1.1\r\nHost: x\r\nDummy: x\nContent-Length: 23\r\n\r\n", "bare LF"),
        ("GET / HTTP/1.1\r\nHost: x\n\r\n", "bare LF"),
        ("GET / HTTP/1.1\r\nHost: x\r\n\n", "bare LF"),
        ("GET / HTTP/1.1\r\nHost: x\rY: z\r\n\r\n", "bare CR"),
        ("\nGET / HTTP/1.1\r\nHost: x\r\n\r\n", "bare LF"),
    ])
    func head_rejectsBareLineEnds(_ text: String, message: String) {
        let outcome = decode(text)
        #expect(outcome.error?.status.code == 400, "\(outcome)")
        #expect(outcome.error?.message.contains(message) == true, "\(outcome)")
    }

    /// The request target: visible ASCII only (RFC 9112 section 3.2): no control byte, space, DEL or byte above 0x7E.
    @Test(arguments: [0x00, 0x01, 0x09, 0x1F, 0x7F, 0x80, 0xC3, 0xFF] as [UInt8])
    func target_withAByteOutsideVisibleASCII_isRejected(_ byte: UInt8) {
        let bytes = Array("GET /a".utf8) + [byte] + Array("b HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        let outcome = DecodeOutcome.decode(bytes)
        #expect(outcome.error?.status.code == 400, "\(outcome)")
        #expect(outcome.error?.message.contains("request") == true, "\(outcome)")
    }

    @Test func emptyLinesBeforeTheRequestLine_areIgnored() throws {
        let parsed = try request("\r\n\r\nGET /a HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(parsed.target == "/a")
    }

    @Test func asteriskTarget_isAcceptedWithOptions() throws {
        #expect(try request("OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n").path == "*")
    }

    @Test func bodies_areFramedByLengthOrChunks() throws {
        #expect(try request("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello").body == Array("hello".utf8))
        #expect(try request("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5, 5\r\n\r\nhello").body.count == 5)
        let chunked = "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: Chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\n"
        #expect(try request(chunked).body == Array("hi".utf8))
    }

    @Test func expectContinue_comesBeforeTheRequestWhenABodyFollows() {
        let outcome = decode(
            "POST / HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\nA"
                + "GET / HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n\r\n")
        #expect(outcome.parts.count == 3)
        #expect(outcome.parts.first == .continueExpected)
        #expect(outcome.requests.map(\.method) == ["POST", "GET"])
    }

    @Test func aCompleteHead_isConsumedAndTheRestWaits() {
        let outcome = decode("GET / HTTP/1.1\r\nHost: x\r\n\r\nGET /next HT")
        #expect(outcome.requests.map(\.target) == ["/"])
        #expect(outcome.partial)
        #expect(decode("GET / HTTP/1.1\r\nHost: x\r\n").partial)
        #expect(!decode("GET / HTTP/1.1\r\nHost: x\r\n\r\n").partial)
    }

    @Test func headBeyondTheLimit_is431EvenBeforeItEnds() {
        let long = "GET / HTTP/1.1\r\nHost: x\r\nX: \(String(repeating: "a", count: 2000))"
        #expect(decode(long).error?.status.code == 431)
        #expect(decode(long + "\r\n\r\n").error?.status.code == 431)
    }

    @Test func afterAnError_everyCallThrowsItAgain() {
        var decoder = RequestDecoder(maxHeaderBytes: 100, maxBodyBytes: 100)
        decoder.append(Array("BAD\r\n\r\n".utf8))
        #expect(throws: HTTPError.self) { try decoder.next() }
        decoder.append(Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        #expect(throws: HTTPError.self) { try decoder.next() }
    }
}

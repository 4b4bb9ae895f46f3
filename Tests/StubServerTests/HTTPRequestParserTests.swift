import Testing

@testable import StubServer

struct HTTPRequestParserTests {
    let parser = HTTPRequestParser(maxHeaderBytes: 1024, maxBodyBytes: 100)

    private func head(_ text: String) throws(HTTPError) -> HTTPRequestHead {
        let bytes = Array(text.utf8)
        return try parser.parseHead(bytes[...])
    }

    @Test func parseHead_readsRequestLineAndFields() throws {
        let parsed = try head("GET /search?term=a HTTP/1.1\r\nHost: x\r\nAccept:  application/json \r\n\r\n")
        #expect(parsed.method == "GET")
        #expect(parsed.target == "/search?term=a")
        #expect(parsed.minorVersion == 1)
        #expect(parsed.headers["accept"] == "application/json")
        #expect(parsed.framing == .none)
    }

    @Test func parseHead_acceptsBareLineFeeds() throws {
        let parsed = try head("GET / HTTP/1.0\nUser-Agent: t\n\n")
        #expect(parsed.minorVersion == 0)
        #expect(parsed.headers["User-Agent"] == "t")
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
        ("GET / HTTP/1.1\r\nHost: x\r\nX: a\u{01}b\r\n\r\n", 400, "control character"),
        (
            "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n", 400,
            "both Transfer-Encoding"
        ),
        ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n", 400, "invalid Content-Length"),
        ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", 400, "invalid Content-Length"),
        ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 101\r\n\r\n", 413, "exceeds the limit of 100 bytes"),
        ("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", 501, "unsupported Transfer-Encoding gzip"),
    ])
    func parseHead_rejectsMalformedInput(_ text: String, status: Int, message: String) {
        #expect {
            try head(text)
        } throws: { error in
            guard let error = error as? HTTPError else { return false }
            return error.status.code == status && error.message.contains(message)
        }
    }

    @Test func parseHead_framesBodies() throws {
        #expect(try head("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n").framing == .length(5))
        #expect(try head("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5, 5\r\n\r\n").framing == .length(5))
        #expect(try head("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: Chunked\r\n\r\n").framing == .chunked)
        #expect(
            try head("POST / HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\n").expectsContinue)
    }

    @Test(
        arguments: [
            ("GET / HTTP/1.1\r\nHost: x\r\n\r\nrest", 27),
            ("GET / HTTP/1.1\nHost: x\n\nrest", 24),
            ("GET / HTTP/1.1\r\nHost: x\r\n", nil),
        ] as [(String, Int?)])
    func headEnd_findsTheBlankLine(_ text: String, end: Int?) {
        #expect(parser.headEnd(in: Array(text.utf8), from: 0) == end)
    }

    @Test func chunkedBody_decodesChunksExtensionsAndTrailers() throws {
        let text = "5;name=v\r\nhello\r\n6\r\n world\r\n0\r\nTrailer: x\r\n\r\nNEXT"
        let decoded = try #require(try ChunkedBody.decode(Array(text.utf8), from: 0, limit: 100))
        #expect(String(decoding: decoded.body, as: UTF8.self) == "hello world")
        #expect(decoded.end == text.utf8.count - 4)
    }

    @Test(arguments: ["5\r\nhel", "5\r\nhello\r\n", "5\r\nhello\r\n0\r\n"])
    func chunkedBody_waitsForMoreBytes(_ text: String) throws {
        #expect(try ChunkedBody.decode(Array(text.utf8), from: 0, limit: 100) == nil)
    }

    @Test(arguments: [
        ("zz\r\nhello\r\n0\r\n\r\n", 400, "malformed chunk size"),
        ("3\r\nhello\r\n0\r\n\r\n", 400, "longer than its declared size"),
        ("65\r\n", 413, "exceeds the limit"),
    ])
    func chunkedBody_rejectsBadChunks(_ text: String, status: Int, message: String) {
        #expect {
            try ChunkedBody.decode(Array(text.utf8), from: 0, limit: 100)
        } throws: { error in
            guard let error = error as? HTTPError else { return false }
            return error.status.code == status && error.message.contains(message)
        }
    }
}

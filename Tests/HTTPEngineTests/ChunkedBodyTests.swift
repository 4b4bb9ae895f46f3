import TestTurns
import Testing

@testable import HTTPEngine

/// Chunked request bodies (RFC 9112 section 7.1), read strictly.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct ChunkedBodyTests {
    private static let head = "POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"

    private func decode(_ body: String) -> DecodeOutcome {
        DecodeOutcome.decode(Self.head + body)
    }

    @Test func chunks_extensionsAndTrailers_decode() throws {
        let outcome = decode("5;name=v\r\nhello\r\n6 ; a = \"q\\\"d\" ;b\r\n world\r\n0\r\nTrailer: x\r\n\r\nNEXT")
        let request = try #require(outcome.requests.first, "\(outcome)")
        #expect(String(decoding: request.body, as: UTF8.self) == "hello world")
        #expect(outcome.partial, "NEXT waits as the start of the next request")
    }

    @Test(arguments: [
        "5\r\nhel", "5\r\nhello\r\n", "5\r\nhello\r\n0\r\n", "5\r\nhello\r", "5\r\nhello\r\n0\r\nX: y\r\n",
    ])
    func incompleteBodies_waitForMoreBytes(_ body: String) {
        let outcome = decode(body)
        #expect(outcome.error == nil && outcome.requests.isEmpty && outcome.partial, "\(outcome)")
    }

    /// Each of these was answered by an earlier version (or crashed it: `-5`); each must be a 400.
    @Test(arguments: [
        ("-5\r\nhello\r\n0\r\n\r\n", "malformed chunk size"),
        ("+a\r\n0123456789\r\n0\r\n\r\n", "malformed chunk size"),
        ("1 0\r\n0123456789abcdef\r\n0\r\n\r\n", "malformed chunk size"),
        ("a \r\n0123456789\r\n0\r\n\r\n", "malformed chunk size"),
        (" a\r\n0123456789\r\n0\r\n\r\n", "malformed chunk size"),
        ("0x5\r\nhello\r\n0\r\n\r\n", "malformed chunk size"),
        ("\r\nhello\r\n0\r\n\r\n", "malformed chunk size"),
        ("zz\r\nhello\r\n0\r\n\r\n", "malformed chunk size"),
        ("2;\r\nhi\r\n0\r\n\r\n", "malformed chunk size"),
        ("2;=v\r\nhi\r\n0\r\n\r\n", "malformed chunk size"),
        ("2;a=\r\nhi\r\n0\r\n\r\n", "malformed chunk size"),
        ("2;a=\"open\r\nhi\r\n0\r\n\r\n", "malformed chunk size"),
        ("2;a=b c\r\nhi\r\n0\r\n\r\n", "malformed chunk size"),
        ("2\nhi\r\n0\r\n\r\n", "bare LF"),
        ("2\r\nhi\n0\r\n\r\n", "longer than its declared size"),
        ("2\r\nhi\rX0\r\n\r\n", "bare CR"),
        ("2\r\nhi\r\n0\n\r\n", "bare LF"),
        ("2\r\nhi\r\n0\r\n\n", "bare LF"),
        ("3\r\nhello\r\n0\r\n\r\n", "longer than its declared size"),
        ("2\r\nhi\r\n0\r\nBad Trailer: x\r\n\r\n", "invalid header name"),
    ])
    func malformedFraming_isA400(_ body: String, message: String) {
        let outcome = decode(body)
        #expect(outcome.error?.status.code == 400, "\(outcome)")
        #expect(outcome.error?.message.contains(message) == true, "\(outcome)")
    }

    @Test(arguments: [
        "65\r\n", "ffffffffffffffffffffffffffff\r\n", "50\r\n\(String(repeating: "x", count: 80))\r\n51\r\n",
    ])
    func bodiesBeyondTheLimit_are413(_ body: String) {
        let outcome = decode(body)
        #expect(outcome.error?.status.code == 413, "\(outcome)")
        #expect(outcome.error?.message.contains("exceeds the limit of 100 bytes") == true)
    }

    @Test func aChunkSizeLineWithoutEnd_isCutOff() {
        let outcome = decode("1;" + String(repeating: "a", count: RequestDecoder.maxChunkLineBytes))
        #expect(outcome.error?.status.code == 400)
        #expect(outcome.error?.message.contains("chunk size line exceeds") == true)
    }

    @Test func trailersBeyondTheHeaderLimit_are431() {
        let outcome = decode("0\r\nX: \(String(repeating: "a", count: 1100))\r\n\r\n")
        #expect(outcome.error?.status.code == 431, "\(outcome)")
    }
}

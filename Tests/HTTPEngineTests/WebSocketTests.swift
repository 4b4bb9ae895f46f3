import HTTPMessages
import StubTestSupport
import TestTurns
import Testing

@testable import HTTPEngine

/// SHA-1 and base64 against their RFCs' test vectors, the handshake against RFC 6455's example, and the frame
/// decoder against RFC 6455's examples, every way of splitting them, and each violation's close code.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct WebSocketTests {
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    /// RFC 3174, section 7.3: TEST1 to TEST4 (TEST4 repeated 10 times, TEST3 a million times).
    @Test(arguments: [
        ("abc", 1, "a9993e364706816aba3e25717850c26c9cd0d89d"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1, "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
        ("a", 1_000_000, "34aa973cd4c4daa4f61eeb2bdbad27316534016f"),
        (
            "0123456701234567012345670123456701234567012345670123456701234567", 10,
            "dea356a2cddd90c7a7ecedc5ebb563934f460452"
        ),
        ("", 1, "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
    ])
    func sha1_matchesRFC3174(_ text: String, _ repeats: Int, _ digest: String) async throws {
        // A million bytes hashed in a debug build take a while: on a thread of its own, not one of the pool's.
        let computed = try await blocking {
            Self.hex(SHA1.digest(Array(repeating: Array(text.utf8), count: repeats).flatMap { $0 }))
        }
        #expect(computed == digest)
    }

    /// RFC 4648, section 10.
    @Test(arguments: [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ])
    func base64_matchesRFC4648(_ text: String, _ encoded: String) {
        #expect(Base64.encode(Array(text.utf8)) == encoded)
        #expect(Base64.decode(encoded) == Array(text.utf8))
    }

    @Test(arguments: ["Zg=", "Zg==Zg==", "Z===", "Zm9v!A==", "=Zm9"])
    func base64_refusesWhatIsNotCanonical(_ text: String) {
        #expect(Base64.decode(text) == nil)
    }

    static func upgrade(_ fields: [(String, String)], method: String = "GET") throws -> Request {
        var headers = HTTPHeaders()
        for (name, value) in fields { headers.add(name, value) }
        return try Request(method: method, target: "/live", headers: headers)
    }

    static let valid = [
        ("Host", "server.example.com"), ("Upgrade", "websocket"), ("Connection", "keep-alive, Upgrade"),
        ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="), ("Sec-WebSocket-Version", "13"),
        ("Sec-WebSocket-Protocol", "chat, superchat"),
    ]

    /// RFC 6455, 1.3: the key `dGhlIHNhbXBsZSBub25jZQ==` is answered `s3pPLMBiTxaQ9kYGzzhZRbK+xOo=`.
    @Test func handshake_answersRFC6455sExample_andChoosesASubprotocol() throws {
        let handshake = try WebSocketHandshake(request: Self.upgrade(Self.valid), supported: ["superchat"])
        #expect(handshake.accept == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        #expect(handshake.subprotocol == "superchat")
        #expect(
            String(decoding: handshake.responseHead, as: UTF8.self)
                == "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\nSec-WebSocket-Protocol: superchat\r\n\r\n")
        #expect(try WebSocketHandshake(request: Self.upgrade(Self.valid)).subprotocol == nil)
    }

    @Test(
        arguments: [
            ("Upgrade", nil, "Upgrade: websocket is missing"),
            ("Connection", "keep-alive", "Connection: Upgrade is missing"),
            ("Sec-WebSocket-Version", "8", "Sec-WebSocket-Version must be 13"),
            ("Sec-WebSocket-Key", "c2hvcnQ=", "Sec-WebSocket-Key must be 16 bytes in base64"),
            ("Sec-WebSocket-Key", nil, "Sec-WebSocket-Key must be 16 bytes in base64"),
        ] as [(String, String?, String)])
    func aBadHandshake_isRefusedWithItsReason(_ name: String, _ value: String?, _ reason: String) throws {
        var fields = Self.valid.filter { $0.0 != name }
        if let value { fields.append((name, value)) }
        // A version this server does not speak is 426 Upgrade Required (RFC 6455, 4.2.2); the rest 400.
        let upgradeRequired = name == "Sec-WebSocket-Version"
        #expect(throws: WebSocketHandshake.Refusal(reason: reason, upgradeRequired: upgradeRequired)) {
            try WebSocketHandshake(request: Self.upgrade(fields))
        }
        #expect(throws: WebSocketHandshake.Refusal(reason: "a WebSocket handshake is a GET, not POST")) {
            try WebSocketHandshake(request: Self.upgrade(Self.valid, method: "POST"))
        }
    }

    /// A client frame: masked with `mask`.
    static func frame(_ first: UInt8, _ payload: [UInt8], mask: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]) -> [UInt8] {
        var bytes = [first]
        switch payload.count {
        case 0...125: bytes.append(0x80 | UInt8(payload.count))
        case 126...0xFFFF: bytes += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default:
            bytes.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) {
                bytes.append(UInt8(truncatingIfNeeded: payload.count >> shift))
            }
        }
        return bytes + mask + payload.enumerated().map { $1 ^ mask[$0 & 3] }
    }

    /// RFC 6455, 5.7's masked "Hello", byte for byte, then fragments with a ping between them, a 256-byte and a
    /// 65,536-byte binary message and a close: the same events however the bytes are split.
    @Test func frames_decodeAlike_howeverTheBytesAreSplit() throws {
        let hello: [UInt8] = [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]
        #expect(hello == Self.frame(0x81, Array("Hello".utf8)))
        let stream =
            hello + Self.frame(0x01, Array("Hel".utf8)) + Self.frame(0x89, Array("Hello".utf8))
            + Self.frame(0x80, Array("lo".utf8)) + Self.frame(0x82, [UInt8](repeating: 7, count: 256))
            + Self.frame(0x82, [UInt8](repeating: 9, count: 65_536))
            + Self.frame(0x88, [0x03, 0xE8] + Array("bye".utf8))
        let expected: [WebSocketDecoder.Event] = [
            .text("Hello"), .ping(Array("Hello".utf8)), .text("Hello"), .binary([UInt8](repeating: 7, count: 256)),
            .binary([UInt8](repeating: 9, count: 65_536)), .close(code: 1000, reason: "bye"),
        ]
        var whole = WebSocketDecoder()
        #expect(whole.feed(stream) == expected)
        for split in stride(from: 1, to: 300, by: 7) {
            var decoder = WebSocketDecoder()
            #expect(
                decoder.feed(stream[..<split]) + decoder.feed(stream[split...]) == expected, "split at \(split)")
        }
        var byByte = WebSocketDecoder()
        var events: [WebSocketDecoder.Event] = []
        for byte in stream.prefix(400) { events += byByte.feed([byte]) }
        #expect(events == Array(expected.prefix(4)))
    }

    @Test(
        arguments: [
            ([0x81, 0x05] + Array("Hello".utf8), 1002, "a client frame must be masked"),
            (frame(0x81, [0xC3, 0x28]), 1007, "a text message that is not UTF-8"),
            (frame(0xC1, Array("x".utf8)), 1002, "reserved bits set (no extension agreed)"),
            (frame(0x83, []), 1002, "unknown opcode 3"),
            (frame(0x09, []), 1002, "a fragmented control frame"),
            (frame(0x89, [UInt8](repeating: 0, count: 126)), 1002, "a control frame over 125 bytes"),
            (frame(0x80, Array("x".utf8)), 1002, "a continuation frame with no message to continue"),
            (
                frame(0x01, Array("x".utf8)) + frame(0x81, Array("y".utf8)), 1002,
                "a new message before the fragmented one ended"
            ),
            (frame(0x88, [0x03]), 1002, "a close frame with a 1-byte body"),
            (frame(0x88, [0x03, 0xED]), 1002, "close code 1005 may not be sent"),
            (
                [0x82, 0xFE, 0x00, 0x05, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 5), 1002,
                "a length not in its shortest form"
            ),
            ([0x82, 0xFF, 0, 0, 0, 0, 0, 0x10, 0, 1], 1009, "a message over 4096 bytes"),
            (
                frame(0x02, [UInt8](repeating: 0, count: 2048)) + frame(0x00, [UInt8](repeating: 0, count: 2048))
                    + frame(0x80, [0]), 1009, "a message over 4096 bytes"
            ),
        ] as [([UInt8], UInt16, String)])
    func aViolation_endsWithItsCloseCode(_ bytes: [UInt8], _ code: UInt16, _ reason: String) {
        #expect(WebSocketDecoder().maxMessageBytes == 1 << 20)
        // A smaller limit than the default 1 MB, for the same paths: the suite's threads are shared.
        var decoder = WebSocketDecoder(maxMessageBytes: 4096)
        _ = decoder.feed(bytes)
        #expect(decoder.failure == WebSocketDecoder.Failure(code: code, reason: reason))
        #expect(decoder.feed(Self.frame(0x81, Array("later".utf8))) == [], "nothing is read after a violation")
    }

    /// Found by the fuzz target: a frame decoded before a violation in the same bytes is kept, as it is when the
    /// bytes arrive one by one.
    @Test func eventsBeforeAViolation_areKept() {
        let bytes: [UInt8] = Self.frame(0x8A, []) + [0x37, 0xFA]
        var whole = WebSocketDecoder()
        #expect(whole.feed(bytes) == [.pong([])])
        #expect(
            whole.failure == WebSocketDecoder.Failure(code: 1002, reason: "reserved bits set (no extension agreed)"))
        var pieces = WebSocketDecoder()
        #expect(pieces.feed(bytes.prefix(6)) + pieces.feed(bytes.dropFirst(6)) == [.pong([])])
        #expect(pieces.failure == whole.failure)
    }

    @Test func serverFrames_areUnmasked_withTheShortestLength() {
        #expect(WebSocketFrame.encode(.text, Array("Hello".utf8)) == [0x81, 0x05] + Array("Hello".utf8))
        #expect(
            WebSocketFrame.encode(.binary, [UInt8](repeating: 1, count: 256)).prefix(4) == [0x82, 0x7E, 0x01, 0x00])
        #expect(
            WebSocketFrame.encode(.binary, [UInt8](repeating: 1, count: 65_536)).prefix(10)
                == [0x82, 0x7F, 0, 0, 0, 0, 0, 1, 0, 0])
        #expect(WebSocketFrame.close(code: 1002, reason: "no") == [0x88, 0x04, 0x03, 0xEA] + Array("no".utf8))
    }
}

import StubTestSupport
import TestTurns
import Testing

@testable import HTTPEngine

/// The decoder gives the same requests, or the same error, however the bytes are cut on arrival.
@Suite(.takesTurns(.heavy), .timeLimit(.minutes(1)))
struct RequestDecoderSplitTests {
    /// A small deterministic generator, so that a failure can be replayed.
    struct Generator: RandomNumberGenerator {
        var state: UInt64

        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state
        }
    }

    static let pipelined = Array(
        ("\r\nPOST /search?term=a+b&x=%20 HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nX-A: b\r\n\r\n"
            + "5;ext=\"v\"\r\nhello\r\n0\r\nTrailer: t\r\n\r\n"
            + "GET /albums/%C3%A9t%C3%A9 HTTP/1.1\r\nHost: x\r\n\r\n"
            + "PUT /upload HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 7\r\n\r\n{\"a\":1}"
            + "HEAD / HTTP/1.0\r\n\r\n").utf8)

    @Test func pipelinedRequests_fedOneByteAtATime_decodeAsWhole() {
        let whole = DecodeOutcome.decode(Self.pipelined)
        #expect(whole.error == nil)
        #expect(whole.requests.map(\.method) == ["POST", "GET", "PUT", "HEAD"])
        #expect(whole.requests.first?.body == Array("hello".utf8))
        #expect(whole.requests.dropFirst().first?.path == "/albums/été")
        #expect(whole.parts.contains(.continueExpected))
        let byByte = DecodeOutcome.decode(Self.pipelined, splits: Array(Self.pipelined.indices))
        #expect(byByte == whole)
    }

    /// Long loops give their thread back every so often (`Task.yield`): a test holding one of the cooperative pool's
    /// few threads for a second starves every other test's timed wait meanwhile.
    @Test func pipelinedRequests_inRandomSplits_decodeAsWhole() async {
        var generator = Generator(state: 11)
        let whole = DecodeOutcome.decode(Self.pipelined)
        for round in 0..<500 {
            if round.isMultiple(of: 50) { await Task.yield() }
            let splits = (0..<Int.random(in: 1...12, using: &generator)).map { _ in
                Int.random(in: 0..<Self.pipelined.count, using: &generator)
            }.sorted()
            #expect(DecodeOutcome.decode(Self.pipelined, splits: splits) == whole, "splits \(splits)")
        }
    }

    /// The valid request with a few bytes replaced, inserted or removed.
    private static func mutate(_ bytes: [UInt8], using generator: inout Generator) -> [UInt8] {
        var result = bytes
        let alphabet: [UInt8] = Array(" \r\n:;%+-?&=/\"0123456789abcdefABCDEF\t\u{0}\u{7F}".utf8) + [0xFF, 0xC3]
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
            let position = Int.random(in: 0..<max(1, result.count), using: &generator)
            switch Int.random(in: 0..<3, using: &generator) {
            case 0 where !result.isEmpty: result[position] = alphabet.randomElement(using: &generator)!
            case 1: result.insert(alphabet.randomElement(using: &generator)!, at: min(position, result.count))
            default: if !result.isEmpty { result.remove(at: position) }
            }
        }
        return result
    }

    @Test func mutatedRequests_decodeOrFailWithAnHTTPError_alikeInAnySplit() async {
        var generator = Generator(state: 42)
        var outcomes: [String: Int] = [:]
        for round in 0..<5_000 {
            if round.isMultiple(of: 100) { await Task.yield() }
            let bytes = Self.mutate(Self.pipelined, using: &generator)
            let whole = DecodeOutcome.decode(bytes, maxHeaderBytes: 4096, maxBodyBytes: 4096)
            let splits = (0..<3).map { _ in Int.random(in: 0..<bytes.count, using: &generator) }.sorted()
            let split = DecodeOutcome.decode(bytes, splits: splits, maxHeaderBytes: 4096, maxBodyBytes: 4096)
            #expect(split == whole, "splits \(splits) of \(String(decoding: bytes, as: UTF8.self).debugDescription)")
            let key = whole.error.map { "\($0.status.code)" } ?? (whole.partial ? "incomplete" : "parsed")
            outcomes[key, default: 0] += 1
        }
        #expect(outcomes["parsed", default: 0] > 0)
        #expect(outcomes["400", default: 0] > 0)
        #expect(Set(outcomes.keys).isSubset(of: ["parsed", "incomplete", "400", "413", "501", "505"]), "\(outcomes)")
    }
}

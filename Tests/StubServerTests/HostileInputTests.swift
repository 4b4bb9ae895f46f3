import Foundation
import Testing

@testable import StubServer

/// Random and mutated input: the parser answers with a result or an `HTTPError`, never a crash, and the server
/// keeps serving afterwards.
struct HostileInputTests {
    /// A small deterministic generator, so that a failure can be replayed.
    struct Generator: RandomNumberGenerator {
        var state: UInt64

        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state
        }
    }

    private static let valid = Array(
        "POST /search?term=a+b&x=%20 HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nX-A: b\r\n\r\n5\r\nhello\r\n0\r\n\r\n"
            .utf8)

    /// The valid request with a few bytes replaced, inserted or removed.
    private static func mutate(_ bytes: [UInt8], using generator: inout Generator) -> [UInt8] {
        var result = bytes
        let alphabet: [UInt8] = Array(" \r\n:;%+?&=/0123456789abcdefABCDEF\t\u{0}\u{7F}".utf8) + [0xFF, 0xC3]
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

    @Test func mutatedRequests_parseOrFailWithAnHTTPError() {
        var generator = Generator(state: 42)
        let parser = HTTPRequestParser(maxHeaderBytes: 4096, maxBodyBytes: 4096)
        var outcomes: [String: Int] = [:]
        for _ in 0..<5_000 {
            let bytes = Self.mutate(Self.valid, using: &generator)
            do {
                guard let end = parser.headEnd(in: bytes, from: 0) else {
                    outcomes["incomplete", default: 0] += 1
                    continue
                }
                let head = try parser.parseHead(bytes[..<end])
                _ = try HTTPRequest(method: head.method, target: head.target, headers: head.headers)
                if head.framing == .chunked {
                    _ = try ChunkedBody.decode(bytes, from: end, limit: 4096)
                }
                outcomes["parsed", default: 0] += 1
            } catch {
                outcomes["\(error.status.code)", default: 0] += 1
            }
        }
        #expect(outcomes["parsed", default: 0] > 0)
        #expect(outcomes["400", default: 0] > 0)
        #expect(Set(outcomes.keys).isSubset(of: ["parsed", "incomplete", "400", "413", "501", "505"]), "\(outcomes)")
    }

    @Test func randomBytes_onTheWire_leaveTheServerServing() async throws {
        try await withTestServer(StubServer.Configuration(headerTimeout: .milliseconds(100))) { server, _ in
            var generator = Generator(state: 7)
            for round in 0..<20 {
                let client = try RawHTTPClient(port: server.port, timeout: 2)
                let garbage = (0..<Int.random(in: 1...600, using: &generator)).map { _ in
                    UInt8.random(in: 0...255, using: &generator)
                }
                try client.send(round.isMultiple(of: 2) ? garbage : garbage + Array("\r\n\r\n".utf8))
                _ = client.readToEnd()
            }
            #expect(try exchange(server, get("/albums/1")).text == #"{"id":"1"}"#)
        }
    }
}

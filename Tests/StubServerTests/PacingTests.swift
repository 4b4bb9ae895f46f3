import Foundation
import HTTPEngine
import StubTestSupport
import TestTurns
import Testing

@testable import StubCore
@testable import StubServer

/// Bodies that arrive slowly: throttled, chunked with pauses, after a first-byte delay, by a named network.
/// Times are checked as lower bounds (bytes can never come sooner than the schedule), never as tight windows.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct PacingTests {
    static let body = String(repeating: "0123456789", count: 200)

    static let stubs = #"""
        {"stubs": [
          {"name": "slow", "request": {"path": "/slow"},
           "variants": {"good": {"body": "\#(body)", "throttle": {"bytesPerSecond": 4000}},
             "bad": {"body": "{"}, "nil": {"body": ""},
             "late": {"body": "late", "firstByteDelayMs": 300},
             "drip": {"body": "hello world!!!", "chunked": {"size": 5, "delayMs": 100}},
             "edge": {"body": "\#(body)", "network": "edge"},
             "crawl": {"body": "\#(body)", "throttle": {"bytesPerSecond": 400}}}},
          {"name": "fast", "request": {"path": "/fast"},
           "variants": {"good": {"body": "fast"}, "bad": {"body": "{"}, "nil": {"body": ""}}}
        ]}
        """#

    private func request(_ target: String, variant: String? = nil) -> String {
        get(target, "Connection: close\r\n" + (variant.map { "X-Stub-Variant: \($0)\r\n" } ?? ""))
    }

    /// Sends `text` and reads the answer until the server closes, with when each read came.
    private func timedExchange(_ server: StubServer, _ text: String) async throws -> (
        sent: Double, arrivals: [RawHTTPClient.Arrival]
    ) {
        let client = try await RawHTTPClient(port: server.port)
        let sent = RawHTTPClient.now()
        try await client.send(text)
        return (sent, await client.readArrivals())
    }

    @Test func aThrottledBody_neverArrivesFasterThanItsRate() async throws {
        try await withServer(stubs: Self.stubs) { server in
            let (sent, arrivals) = try await timedExchange(server, request("/slow"))
            let wire = arrivals.flatMap(\.bytes)
            let text = String(decoding: wire, as: UTF8.self)
            #expect(text.hasSuffix("\r\n\r\n" + Self.body))
            #expect(text.contains("Content-Length: 2000\r\n"), "throttled bodies keep Content-Length framing")
            let headBytes = wire.count - 2000
            var received = 0
            for arrival in arrivals {
                received += arrival.bytes.count
                let body = max(0, received - headBytes)
                // 4000 bytes a second in pieces of 200: by time t at most 4000 t bytes have been sent.
                #expect(
                    Double(body) <= 4000 * (arrival.time - sent) + 1, "\(body) bytes after \(arrival.time - sent) s")
            }
            #expect(arrivals.count >= 2, "the body came in pieces")
            #expect((arrivals.last?.time ?? 0) - sent >= 0.49)
        }
    }

    @Test func aChunkedDrip_sendsEachChunkAfterItsPause() async throws {
        try await withServer(stubs: Self.stubs) { server in
            let (sent, arrivals) = try await timedExchange(server, request("/slow", variant: "drip"))
            let text = String(decoding: arrivals.flatMap(\.bytes), as: UTF8.self)
            #expect(text.contains("Transfer-Encoding: chunked\r\n"))
            #expect(text.hasSuffix("\r\n\r\n5\r\nhello\r\n5\r\n worl\r\n4\r\nd!!!\r\n0\r\n\r\n"))
            var seen = ""
            for arrival in arrivals {
                seen += String(decoding: arrival.bytes, as: UTF8.self)
                if seen.contains("d!!!") { #expect(arrival.time - sent >= 0.2, "the third chunk waits two pauses") }
                if seen.contains(" worl") { #expect(arrival.time - sent >= 0.1) }
            }
        }
    }

    @Test func aFirstByteDelay_holdsTheHead() async throws {
        try await withServer(stubs: Self.stubs) { server in
            let (sent, arrivals) = try await timedExchange(server, request("/slow", variant: "late"))
            #expect(String(decoding: arrivals.flatMap(\.bytes), as: UTF8.self).hasSuffix("\r\n\r\nlate"))
            #expect((arrivals.first?.time ?? 0) - sent >= 0.3)
        }
    }

    @Test func aNamedNetwork_addsItsLatencyAndRate() async throws {
        try await withServer(stubs: Self.stubs) { server in
            let (sent, arrivals) = try await timedExchange(server, request("/slow", variant: "edge"))
            #expect(String(decoding: arrivals.flatMap(\.bytes), as: UTF8.self).hasSuffix(Self.body))
            // Edge: 400 ms to the first byte, then 2000 bytes at 30,000 bytes a second (67 ms).
            #expect((arrivals.first?.time ?? 0) - sent >= 0.4)
            #expect((arrivals.last?.time ?? 0) - sent >= 0.4 + 0.066)
        }
    }

    @Test func aThrottledAnswer_doesNotHoldUpOtherConnections() async throws {
        try await withServer(stubs: Self.stubs) { server in
            // The fast exchange must happen while the slow body is still going (5 s): the test plays prompt clients.
            let (slowRequest, fastRequest) = (request("/slow", variant: "crawl"), request("/fast"))
            let (arrivals, fast) = try await promptly {
                let slowClient = try await RawHTTPClient(port: server.port)
                try await slowClient.send(slowRequest)
                async let arrivals = slowClient.readArrivals()
                try await waitUntil("the slow request to be answered") { server.requestCount() == 1 }
                let client = try await RawHTTPClient(port: server.port)
                try await client.send(fastRequest)
                let fast = try await client.readResponse()
                return (await arrivals, fast)
            }
            #expect(fast.text == "fast")
            #expect(String(decoding: arrivals.flatMap(\.bytes), as: UTF8.self).hasSuffix(Self.body))
            #expect(
                try #require(arrivals.last).time > fast.arrived,
                "the fast answer came while the slow body was still going")
        }
    }

    @Test func aHeadRequest_getsTheHeadWithoutWaitingForPacing() async throws {
        try await withServer(stubs: Self.stubs) { server in
            let client = try await RawHTTPClient(port: server.port)
            try await client.send("HEAD /slow HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try await client.readResponse(head: true)
            #expect(response.header("Content-Length") == "2000")
            #expect(response.body.isEmpty)
        }
    }

    @Test(arguments: [
        (1000, 500, [Int](repeating: 50, count: 10)),
        (3, 4, [333, 334, 333, 333]),
        (20_000, 1500, [50, 25]),
    ])
    func throttleSchedule_spreadsTheBodyOverLengthOverRate(rate: Int, length: Int, pauses: [Int]) {
        let body = (0..<length).map { UInt8($0 % 256) }
        let (pieces, chunked) = Pacing.throttle(bytesPerSecond: rate).pieces(of: body)
        #expect(!chunked)
        #expect(pieces.map(\.pauseMs) == pauses)
        #expect(pieces.flatMap(\.bytes) == body)
        #expect(pauses.reduce(0, +) == Int((Double(length) * 1000 / Double(rate)).rounded()))
    }

    @Test func aHugeBodyAtATinyRate_isCutIntoBoundedPieces() {
        let body = [UInt8](repeating: 7, count: 1_000_000)
        let (pieces, _) = Pacing.throttle(bytesPerSecond: 10).pieces(of: body)
        #expect(pieces.count == Pacing.maxPieces)
        #expect(pieces.map(\.pauseMs).reduce(0, +) == 100_000_000)
        let (chunks, chunked) = Pacing.chunked(size: 1, delayMs: 1).pieces(of: body)
        #expect(chunked)
        #expect(chunks.count == Pacing.maxPieces)
    }

    @Test func chunkSchedule_sendsTheFirstChunkAtOnce() {
        let (pieces, chunked) = Pacing.chunked(size: 4, delayMs: 30).pieces(of: Array("0123456789".utf8))
        #expect(chunked)
        #expect(pieces.map { String(decoding: $0.bytes, as: UTF8.self) } == ["0123", "4567", "89"])
        #expect(pieces.map(\.pauseMs) == [0, 30, 30])
    }
}

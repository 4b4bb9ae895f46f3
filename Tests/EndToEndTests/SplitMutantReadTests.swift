import Foundation
import HTTPMessages
import StubMutations
import StubServer
import StubTestSupport
import TestTurns
import Testing

/// What a client observes of `event[N]:split` and `message[N]:fragmented`, read off a raw socket: the event's first
/// piece in a read of its own, ending exactly where the mutant cuts it, and the stream otherwise the good one; each
/// frame of a fragmented message but the last in a read that ends with it. Written back to back, the pieces reached
/// a client in one read, and an HTTP client saw the good stream.
// Two minutes: a try that reads until the socket is quiet took 8 s beside two CPU hogs, and up to eight are made.
@Suite(.takesTurns(.heavy), .timeLimit(.minutes(2)))
struct SplitMutantReadTests {
    /// How many times an exchange is tried before a merged read counts against the server: beside two CPU hogs on
    /// one core, three tries of a fragmented message all had a read merged across the 100 ms pause (a CI stress run);
    /// pieces written together merge in every try.
    static let tries = 8

    static var splits: [String] {
        get throws { try EventStreamMutantTests.chat.mutants.map(\.id).filter { $0.hasSuffix(":split") } }
    }

    @Test func theChatStream_hasASplitMutantPerEvent() throws {
        let twice = try EventStreamMutantTests.chat.mutants.filter { $0.id.hasSuffix(":twice") }
        #expect(try Self.splits.count == twice.count)
        #expect(twice.count >= 10)
    }

    /// Each split mutant of MockData's chat stream: some read ends at the cut. The second piece follows 100 ms
    /// later; the poller's thread notes each read as it comes, so a busy test task cannot merge them, but a thread
    /// starved for the whole pause can: the exchange is tried up to `tries` times, and must show the cut once. Pieces
    /// written together never can.
    @Test(arguments: try splits)
    func eachSplitEvent_reachesTheClientAsTwoReads(_ id: String) async throws {
        let chat = try EventStreamMutantTests.chat
        let mutant = try #require(chat.mutants.first { $0.id == id })
        guard case .stream(_, _, let blocks, _) = mutant.apply(to: chat.stream) else {
            Issue.record("\(id) is not a stream")
            return
        }
        let pieces = blocks.flatMap(\.pieces)
        let split = try #require(blocks.first { $0.pieces.count == 2 })
        let cut = try #require(blocks.firstIndex { $0.pieces.count == 2 })
        let before = blocks[..<cut].flatMap(\.pieces).reduce(0) { $0 + $1.bytes.count }
        let cutAt = before + split.pieces[0].bytes.count
        #expect(split.pieces[1].pauseMs >= 100, "the second piece is held back")
        let server = try StubServer.start(catalog: chat.catalog)
        defer { Task { await server.stop() } }
        var ends: [[Int]] = []
        for _ in 1...Self.tries {
            let client = try await RawHTTPClient(port: server.port)
            try await client.send(
                "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Stub-Mutation: \(id)\r\n"
                    + "Content-Length: 2\r\n\r\n{}")
            let (body, readEnds) = try Self.dechunk(await client.readArrivals())
            #expect(body == pieces.flatMap(\.bytes), "\(id): the stream is the mutant's, every byte")
            ends.append(readEnds)
            if readEnds.contains(cutAt) { break }
        }
        #expect(
            ends.contains { $0.contains(cutAt) }, "\(id): a read ends at body byte \(cutAt); reads ended at \(ends)")
    }

    static var fragmented: [String] {
        get throws { try WebSocketMutantTests.loaded.get().mutants.map(\.id).filter { $0.hasSuffix(":fragmented") } }
    }

    /// Each fragmented message of MockData's live socket (opened, then a ping and a subscribe sent at once): a read
    /// ends after each of its frames but the last, before the continuation frame that follows it. Tried up to `tries`
    /// times, as above.
    @Test(arguments: try fragmented)
    func eachFragmentedMessage_reachesTheClientFrameByFrame(_ id: String) async throws {
        let catalog = try StubCatalog.load(from: mockData)
        let server = try StubServer.start(catalog: catalog)
        defer { Task { await server.stop() } }
        var tries: [[Int]] = []
        for _ in 1...Self.tries {
            let socket = try await RawWebSocket(
                port: server.port, path: "/live", protocols: ["catalog.v1"], extraHeaders: "X-Stub-Mutation: \(id)\r\n",
                timeout: 2)
            #expect(await socket.handshake.status == 101)
            try await socket.send(text: #"{"type": "ping"}"#)
            try await socket.send(text: #"{"type": "subscribe"}"#)
            // Until the socket is quiet for 2 s: the script has sent everything by then.
            let arrivals = await socket.client.readArrivals()
            var readEnds: [Int] = []
            var total = 0
            for arrival in arrivals {
                total += arrival.bytes.count
                readEnds.append(total)
            }
            let frames = Self.frames(arrivals.flatMap(\.bytes))
            // The frames before each continuation frame: the fragmented message's all but its last.
            let cuts = frames.indices.dropFirst().filter { frames[$0].opcode == 0 }.map { frames[$0 - 1].end }
            #expect(cuts.count == 2, "\(id): three frames, two of them continuation frames")
            tries.append(cuts.filter { !readEnds.contains($0) })
            if tries.last?.isEmpty == true { break }
        }
        #expect(tries.contains { $0.isEmpty }, "\(id): no read ended at \(tries)")
    }

    /// The server's frames in `bytes`: each opcode and the offset its frame ends at.
    static func frames(_ bytes: [UInt8]) -> [(opcode: UInt8, end: Int)] {
        var frames: [(opcode: UInt8, end: Int)] = []
        var at = 0
        while at + 2 <= bytes.count {
            var length = Int(bytes[at + 1] & 0x7F)
            var header = 2
            if length == 126, at + 4 <= bytes.count {
                length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
                header = 4
            } else if length == 127, at + 10 <= bytes.count {
                length = bytes[(at + 2)..<(at + 10)].reduce(0) { $0 << 8 | Int($1) }
                header = 10
            }
            frames.append((bytes[at] & 0x0F, at + header + length))
            at += header + length
        }
        return frames
    }

    /// The body of a chunked answer read as `arrivals`, and the body offsets at which each read ended.
    static func dechunk(_ arrivals: [RawHTTPClient.Arrival]) throws -> (body: [UInt8], readEnds: [Int]) {
        let wire = arrivals.flatMap(\.bytes)
        var readEndsOnWire: [Int] = []
        var total = 0
        for arrival in arrivals {
            total += arrival.bytes.count
            readEndsOnWire.append(total)
        }
        let crlfcrlf: [UInt8] = [13, 10, 13, 10]
        guard var at = wire.indices.first(where: { wire[$0...].starts(with: crlfcrlf) }).map({ $0 + 4 }) else {
            throw RawHTTPClient.ClientError.malformed(String(decoding: wire, as: UTF8.self))
        }
        var body: [UInt8] = []
        // For each byte on the wire from the head's end: how much body precedes it.
        var bodyBefore = [Int](repeating: 0, count: wire.count + 1)
        for index in 0...at { bodyBefore[index] = 0 }
        while at < wire.count {
            guard let lineEnd = wire[at...].indices.first(where: { wire[$0...].starts(with: [13, 10]) }),
                let size = Int(String(decoding: wire[at..<lineEnd], as: UTF8.self), radix: 16)
            else { throw RawHTTPClient.ClientError.malformed(String(decoding: wire[at...], as: UTF8.self)) }
            let dataStart = lineEnd + 2
            let dataEnd = min(wire.count, dataStart + size)
            for index in at...dataStart where index <= wire.count { bodyBefore[index] = body.count }
            for index in dataStart..<dataEnd { bodyBefore[index + 1] = body.count + index - dataStart + 1 }
            body += wire[dataStart..<dataEnd]
            let next = min(wire.count, dataEnd + 2)
            for index in dataEnd...next { bodyBefore[index] = body.count }
            at = next
            if size == 0 { break }
        }
        return (body, readEndsOnWire.map { bodyBefore[min($0, wire.count)] })
    }
}

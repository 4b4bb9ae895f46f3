import TestTurns
import Testing

@testable import HTTPEngine

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The socket side of a callback-driven TLS session (Secure Transport's on Apple platforms), over a real socket
/// pair: ciphertext handed over in order and in pieces, records sent as the socket takes them, and the first
/// bytes checked for plain HTTP and the listener's handshake failures.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct CiphertextBuffersTests {
    /// Our end (non-blocking) and the peer's; both closed by the caller.
    private func pair() throws -> (Socket, Int32) {
        let (mine, peer) = try socketPair()
        _ = fcntl(mine, F_SETFL, fcntl(mine, F_GETFL) | O_NONBLOCK)
        return (Socket(fd: mine), peer)
    }

    private func pull(_ buffers: CiphertextBuffers) throws {
        var scratch = [UInt8](repeating: 0, count: 64)
        try scratch.withUnsafeMutableBytes { try buffers.pull(into: $0) }
    }

    private func supply(_ buffers: CiphertextBuffers, _ count: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        let got = out.withUnsafeMutableBytes { buffers.supply($0) }
        return Array(out.prefix(got))
    }

    /// What the peer can read now, without waiting (the bytes were sent before).
    private func peerReads(_ peer: Int32) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 4096)
        let count = recv(peer, &out, out.count, Int32(MSG_DONTWAIT))  // blocking-ok: MSG_DONTWAIT
        return count > 0 ? Array(out.prefix(count)) : []
    }

    @Test func ciphertext_isSuppliedInOrder_inPiecesOfWhatIsAsked() throws {
        let (socket, peer) = try pair()
        defer {
            socket.close()
            close(peer)
        }
        let buffers = CiphertextBuffers(socket: socket, handshake: .answered)
        try pull(buffers)
        #expect(buffers.available == 0, "nothing sent yet")
        let hello: [UInt8] = [22, 3, 1, 0, 5, 1, 2, 3, 4, 5]
        #expect(send(peer, hello, hello.count, 0) == hello.count)
        try pull(buffers)
        #expect(buffers.available == 10)
        #expect(supply(buffers, 3) == [22, 3, 1])
        #expect(supply(buffers, 5) == [0, 5, 1, 2, 3])
        #expect(supply(buffers, 8) == [4, 5], "short: no more is waiting")
        #expect(supply(buffers, 8) == [])
        #expect(send(peer, [UInt8]([23, 9]), 2, 0) == 2)
        try pull(buffers)
        #expect(supply(buffers, 8) == [23, 9])
        #expect(!buffers.socketEnded)
        shutdown(peer, Int32(SHUT_WR))
        try pull(buffers)
        #expect(buffers.socketEnded)
    }

    @Test func records_goOutAsTheSocketTakesThem_andAreCounted() throws {
        let (socket, peer) = try pair()
        defer {
            socket.close()
            close(peer)
        }
        let buffers = CiphertextBuffers(socket: socket, handshake: .answered)
        // More than a socket pair's buffer holds: the rest waits until the peer reads.
        let records = (0..<600_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        records.withUnsafeBytes { buffers.take($0) }
        try buffers.flushPending()
        #expect(buffers.hasPendingOutput)
        #expect(buffers.bytesWritten > 0 && buffers.bytesWritten < records.count)
        var received: [UInt8] = []
        while received.count < records.count {
            let now = peerReads(peer)
            received += now
            try buffers.flushPending()
            if now.isEmpty, !buffers.hasPendingOutput { break }
        }
        #expect(!buffers.hasPendingOutput)
        #expect(buffers.bytesWritten == records.count)
        #expect(received == records)
    }

    @Test func aPlainHTTPRequest_isAnswered400_thenTheWriteSideEnds_andTheRestIsDropped() throws {
        let (socket, peer) = try pair()
        defer {
            socket.close()
            close(peer)
        }
        let buffers = CiphertextBuffers(socket: socket, handshake: .answered)
        let request = Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        #expect(send(peer, request, request.count, 0) == request.count)
        try pull(buffers)
        #expect(buffers.refusedPlainHTTP)
        #expect(buffers.available == 0)
        let answer = String(decoding: peerReads(peer), as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
        #expect(answer.contains("this port speaks HTTPS"))
        var byte: UInt8 = 0
        #expect(recv(peer, &byte, 1, Int32(MSG_DONTWAIT)) == 0, "then the end")  // blocking-ok: MSG_DONTWAIT
        #expect(send(peer, request, request.count, 0) == request.count)
        try pull(buffers)
        #expect(buffers.available == 0, "what follows is dropped")
    }

    @Test(arguments: [UInt8(22), 0x80, 0x16])
    func aTLSRecordOrAnSSLv2Hello_isNoPlainRequest(first: UInt8) throws {
        let (socket, peer) = try pair()
        defer {
            socket.close()
            close(peer)
        }
        let buffers = CiphertextBuffers(socket: socket, handshake: .answered)
        #expect(send(peer, [first, 1], 2, 0) == 2)
        try pull(buffers)
        #expect(!buffers.refusedPlainHTTP)
        #expect(buffers.available == 2)
    }

    @Test func aListenerThatResetsHellos_throws_andOneThatStalls_dropsThem() throws {
        let (socket, peer) = try pair()
        defer {
            socket.close()
            close(peer)
        }
        #expect(send(peer, [UInt8]([22, 3, 1]), 3, 0) == 3)
        let resetting = CiphertextBuffers(socket: socket, handshake: .reset)
        #expect(throws: TLSError("the hello is answered with a reset (handshake-reset)")) { try pull(resetting) }
        #expect(send(peer, [UInt8]([22, 3, 1]), 3, 0) == 3)
        let stalling = CiphertextBuffers(socket: socket, handshake: .stalled)
        try pull(stalling)
        #expect(stalling.available == 0)
    }
}

// libFuzzer target for the engine's TLS session (OpenSSLSession over OpenSSL's memory buffers), compiled together
// with Sources/Stubs/HTTPEngine and the system's OpenSSL by Fuzz/run.sh. The input is what a client sends to the TLS
// port, over a real socket pair; byte 0 chooses where the bytes are cut into two writes. The session must end in
// one of its three ways (plaintext, the end, or a TLSError that closes the connection) and the same way whether
// the bytes came whole or in two pieces; a request line's first letter is answered with the plain 400, and the
// session then waits for the client to close.

import Glibc
import Locking

/// The context every input's session comes from, made once: a listener's, with the local authority's leaf.
let context = Lock<any TLSServerContext>(
    try! makeTLSContext(try! LocalAuthority.loadOrCreate(in: ".build/fuzz/authority").issue()))

/// How a session took the input.
enum Outcome: Equatable {
    case plaintext(Int)
    case waiting
    case ended
    case failed
}

func run(_ input: [UInt8], cutAt cut: Int) -> (outcome: Outcome, answer: [UInt8]) {
    var ends: [Int32] = [0, 0]
    precondition(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
    let server = Socket(fd: ends[0])
    server.setNonBlocking()
    defer {
        close(ends[0])
        close(ends[1])
    }
    let session = context.withLock { try! $0.session(on: server) }
    let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 16)
    defer { scratch.deallocate() }
    var outcome = Outcome.waiting
    var plaintext = 0
    for piece in [input[..<cut], input[cut...]] where !piece.isEmpty {
        _ = piece.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
        reading: while true {
            do {
                guard let count = try session.read(into: scratch) else { break reading }
                precondition(count <= scratch.count)
                if count == 0 {
                    outcome = .ended
                    break reading
                }
                plaintext += count
            } catch {
                precondition(error is TLSError || error is SocketError, "\(error)")
                outcome = .failed
                break reading
            }
        }
        if outcome != .waiting { break }
    }
    if outcome == .waiting && plaintext > 0 { outcome = .plaintext(plaintext) }
    // What the session sent back: the server's hello, an alert, or the plain 400.
    var answer: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
    while case let count = read(ends[1], &buffer, buffer.count), count > 0 { answer += buffer[0..<count] }
    return (outcome, answer)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTLSSession(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 1 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let input = Array(bytes.dropFirst())
    let cut = Int(bytes[0]) % (input.count + 1)
    let whole = run(input, cutAt: input.count)
    let pieces = run(input, cutAt: cut)
    // A client's bytes never make plaintext without a handshake this harness cannot finish.
    precondition(
        whole.outcome != .plaintext(0) && pieces.outcome == whole.outcome, "\(whole) vs \(pieces) cut at \(cut)")
    if let first = input.first, PlainHTTPOnTLS.starts(first) {
        // The 400, the write side's end, and the rest of the input read and dropped until the client closes.
        precondition(whole.outcome == .waiting && whole.answer.starts(with: Array("HTTP/1.1 400 ".utf8)))
    } else if !whole.answer.isEmpty {
        // A handshake record (the server's hello) or an alert.
        precondition(whole.answer[0] == 0x16 || whole.answer[0] == 0x15, "answer starts with \(whole.answer[0])")
    }
    return 0
}

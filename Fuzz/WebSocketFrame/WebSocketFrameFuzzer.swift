// libFuzzer target for the WebSocket frame decoder (Sources/Stubs/HTTPEngine/WebSocket). Compiled by Fuzz/run.sh with
// Sources/Stubs/HTTPEngine (HTTPMessages and Locking as libraries). Properties, not only survival:
// - split-equivalence: the input's first byte picks a piece size; feeding the rest in pieces of that size gives
//   the same events and the same failure as feeding it whole;
// - a failure's close code is 1002, 1007 or 1009, with a reason;
// - no message is longer than the decoder's limit (4,096 bytes here, so the 1009 path is reached).
//
// Seeds: RFC 6455's example frames and fragmented, control and close frames, in Fuzz/seeds/websocket-frame.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebSocketFrames(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 1 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let piece = Int(bytes[0] % 13) + 1
    let input = Array(bytes.dropFirst())
    let whole = decode(input, piece: input.count)
    let pieces = decode(input, piece: piece)
    precondition(whole.events == pieces.events, "events differ when fed in pieces of \(piece)")
    precondition(whole.failure == pieces.failure, "failures differ when fed in pieces of \(piece)")
    if let failure = whole.failure {
        precondition([1002, 1007, 1009].contains(failure.code) && !failure.reason.isEmpty)
    }
    for event in whole.events {
        switch event {
        case .text(let text): precondition(text.utf8.count <= 4096)
        case .binary(let bytes): precondition(bytes.count <= 4096)
        case .ping(let bytes), .pong(let bytes): precondition(bytes.count <= 125)
        case .close(_, let reason): precondition(reason.utf8.count <= 123)
        }
    }
    return 0
}

func decode(_ input: [UInt8], piece: Int) -> (events: [WebSocketDecoder.Event], failure: WebSocketDecoder.Failure?) {
    var decoder = WebSocketDecoder(maxMessageBytes: 4096)
    var events: [WebSocketDecoder.Event] = []
    var offset = 0
    while offset < input.count, decoder.failure == nil {
        let end = min(offset + max(piece, 1), input.count)
        events += decoder.feed(input[offset..<end])
        offset = end
    }
    return (events, decoder.failure)
}

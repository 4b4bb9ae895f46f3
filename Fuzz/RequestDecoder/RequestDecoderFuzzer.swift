// libFuzzer target for the HTTP engine's request decoder, compiled together with Sources/Stubs/HTTPEngine by
// Fuzz/run.sh (swiftc -sanitize=fuzzer,address). It drives the decoder the way a connection does (`append`,
// then `next` until nil) and checks a property, not only survival: the same bytes fed whole and fed in pieces
// decode to the same parts and end in the same error or the same partial state.
//
// Input layout: byte 0 is a mode; with its high bit set the payload is fed one byte at a time, else its low
// 3 bits count the split bytes that follow, each the length of the next piece. The rest is the payload.

import HTTPMessages

/// What one feeding of the payload produced.
struct FuzzOutcome: Equatable {
    var parts: [RequestDecoder.Part] = []
    var error: HTTPError?
    var partial = false
}

func decode(_ payload: ArraySlice<UInt8>, cuttingAt ends: [Int]) -> FuzzOutcome {
    var decoder = RequestDecoder(maxHeaderBytes: 2048, maxBodyBytes: 4096)
    var outcome = FuzzOutcome()
    var from = payload.startIndex
    for end in ends + [payload.endIndex] where end >= from && end <= payload.endIndex {
        decoder.append(Array(payload[from..<end]))
        from = end
        do {
            while let part = try decoder.next() {
                outcome.parts.append(part)
                if case .request(let request) = part {
                    // Every request the decoder hands over is well formed.
                    precondition(!request.method.isEmpty && request.body.count <= 4096)
                    // By bytes: `hasPrefix("/")` compares graphemes, and "/" plus a combining mark is one.
                    precondition(request.path == "*" || request.path.utf8.first == UInt8(ascii: "/"))
                }
            }
        } catch {
            precondition([400, 413, 431, 501, 505].contains(error.status.code), "unexpected status \(error)")
            outcome.error = error
            return outcome
        }
    }
    outcome.partial = decoder.hasPartialRequest
    return outcome
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequestDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeBufferPointer(start: data, count: size)
    guard let mode = input.first else { return 0 }
    let splitCount = mode & 0x80 != 0 ? 0 : Int(mode & 0x07)
    guard input.count > 1 + splitCount else { return 0 }
    let bytes = Array(input)
    let payload = bytes[(1 + splitCount)...]
    var ends: [Int] = []
    if mode & 0x80 != 0 {
        ends = Array(payload.indices.dropFirst())
    } else {
        var end = payload.startIndex
        for length in bytes[1..<(1 + splitCount)] {
            end += Int(length)
            ends.append(end)
        }
    }
    let whole = decode(payload, cuttingAt: [])
    let pieces = decode(payload, cuttingAt: ends)
    if whole != pieces {
        fatalError("fed whole: \(whole)\nfed in pieces at \(ends): \(pieces)")
    }
    return 0
}

import HTTPMessages

@testable import HTTPEngine

/// What a decoder made of some bytes: the parts in order, then an error or whether a partial request remains.
struct DecodeOutcome: Equatable, CustomStringConvertible {
    var parts: [RequestDecoder.Part] = []
    var error: HTTPError?
    var partial = false

    var requests: [Request] {
        parts.compactMap { if case .request(let request) = $0 { request } else { nil } }
    }

    var description: String {
        "\(parts.count) parts, error: \(error.map { "\($0)" } ?? "none"), partial: \(partial)"
    }

    /// Feeds `bytes` to a new decoder in pieces ending at `splits` (sorted offsets), decoding after each piece.
    static func decode(
        _ bytes: [UInt8], splits: [Int] = [], maxHeaderBytes: Int = 1024, maxBodyBytes: Int = 100
    ) -> DecodeOutcome {
        var decoder = RequestDecoder(maxHeaderBytes: maxHeaderBytes, maxBodyBytes: maxBodyBytes)
        var outcome = DecodeOutcome()
        var from = 0
        for end in splits.filter({ $0 > 0 && $0 < bytes.count }) + [bytes.count] where end >= from {
            decoder.append(Array(bytes[from..<end]))
            from = end
            do {
                while let part = try decoder.next() { outcome.parts.append(part) }
            } catch {
                outcome.error = error
                return outcome
            }
        }
        outcome.partial = decoder.hasPartialRequest
        return outcome
    }

    static func decode(_ text: String, maxHeaderBytes: Int = 1024, maxBodyBytes: Int = 100) -> DecodeOutcome {
        decode(Array(text.utf8), maxHeaderBytes: maxHeaderBytes, maxBodyBytes: maxBodyBytes)
    }
}

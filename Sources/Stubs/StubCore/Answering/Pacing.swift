package import HTTPMessages

/// How a variant's body goes out over time: at a steady rate, or as chunks with pauses between them.
package enum Pacing: Sendable, Equatable {
    /// `Content-Length` framing, the body sent at this many bytes per second.
    case throttle(bytesPerSecond: Int)
    /// Chunked transfer coding: chunks of `size` bytes with `delayMs` between them.
    case chunked(size: Int, delayMs: Int)

    /// Most pieces a paced body is cut into; a slow rate over a large body sends larger pieces less often.
    static let maxPieces = 10_000

    /// `body` cut into timed pieces, and whether they go out chunked. Every piece's pause is rounded from the
    /// exact schedule, so the rate holds over the whole body rather than drifting by a rounding per piece.
    package func pieces(of body: [UInt8]) -> (pieces: [BodyPiece], chunked: Bool) {
        switch self {
        case .chunked(let size, let delayMs):
            let pieceSize = max(size, (body.count + Self.maxPieces - 1) / Self.maxPieces)
            return (cut(body, into: pieceSize) { index in index == 0 ? 0 : delayMs }, true)
        case .throttle(let rate):
            // About twenty pieces a second, at least one byte each.
            let pieceSize = max(1, rate / 20, (body.count + Self.maxPieces - 1) / Self.maxPieces)
            var scheduled = 0
            return (
                cut(body, into: pieceSize) { index in
                    // Piece `index` is due when its last byte would have arrived at `rate`.
                    let through = min((index + 1) * pieceSize, body.count)
                    let due = Int((Double(through) * 1000 / Double(rate)).rounded())
                    defer { scheduled = due }
                    return due - scheduled
                }, false
            )
        }
    }

    private func cut(_ body: [UInt8], into size: Int, pause: (Int) -> Int) -> [BodyPiece] {
        stride(from: 0, to: body.count, by: size).enumerated().map { index, start in
            BodyPiece(Array(body[start..<min(start + size, body.count)]), pauseMs: pause(index))
        }
    }
}

/// A named network, for `"network"` in a variant: its downlink rate and the delay before the first byte.
///
/// The figures are the downlink settings of the presets of Apple's Network Link Conditioner (Additional Tools for
/// Xcode), the tool iOS developers already use for this.
package enum NetworkProfile: String, Sendable, CaseIterable {
    case edge
    case threeG = "3g"
    case lte
    case wifi

    /// Downlink bytes per second: Edge 240 kbit/s, 3G 780 kbit/s, LTE 50 Mbit/s, Wi-Fi 40 Mbit/s.
    package var bytesPerSecond: Int {
        switch self {
        case .edge: 30_000
        case .threeG: 97_500
        case .lte: 6_250_000
        case .wifi: 5_000_000
        }
    }

    /// Downlink delay: Edge 400 ms, 3G 100 ms, LTE 50 ms, Wi-Fi 1 ms.
    package var latencyMs: Int {
        switch self {
        case .edge: 400
        case .threeG: 100
        case .lte: 50
        case .wifi: 1
        }
    }
}

/// Part of a streamed body.
package struct BodyPiece: Sendable, Equatable {
    package var bytes: [UInt8]
    /// Milliseconds to wait before sending this piece.
    package var pauseMs: Int

    package init(_ bytes: [UInt8], pauseMs: Int) {
        self.bytes = bytes
        self.pauseMs = pauseMs
    }
}

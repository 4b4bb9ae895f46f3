/// How a body sent in pieces ends after its last piece, on either transport (the engine's streamed reply, the
/// in-process loader).
package enum StreamEnd: Sendable, Equatable {
    /// Properly: the last chunk of a chunked body.
    case complete
    /// The connection closes mid-body, without the last chunk (`dropAfterEvents`, `truncate`).
    case drop
    /// The connection is aborted with a TCP reset once the pieces are out (`reset`).
    case reset
    /// Nothing more is sent and the connection stays open, until the client gives up or the server stops (a
    /// stream's `hang` mutants).
    case hang
}

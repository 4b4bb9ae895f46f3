import Synchronization

/// A reply owed to one request, handed over later from any thread; the loop wakes and sends it.
///
/// Fulfilling twice, or after the client left or the server stopped, does nothing.
package struct ReplyPromise: Sendable {
    let channel: LoopChannel
    let fd: Int32
    let connection: UInt64
    let request: UInt64

    package func fulfil(_ reply: Reply) {
        channel.post(.reply(Delivery(fd: fd, connection: connection, request: request, reply: reply)))
    }

    /// A reply on its way to the loop.
    struct Delivery: Sendable {
        var fd: Int32
        var connection: UInt64
        var request: UInt64
        var reply: Reply
    }
}

/// Answers requests from an upstream instead of the catalog, off the server's thread: the proxy and the recorder
/// (library `StubServerRecording`) are forwarders. The server's thread never waits for one.

import StubCore

package protocol RequestForwarder: Sendable {
    /// How the journal and the log mark a forwarded request, such as `proxied` or `recorded`.
    var label: String { get }
    /// Whether requests a stub matches are forwarded too (recording everything), or only unmatched ones.
    var forwardsMatchedRequests: Bool { get }
    /// Whether a forwarded answer may have changed the fixtures, so that the catalog is loaded again.
    var changesFixtures: Bool { get }
    /// Forwards `request` and calls `completion` once, from any thread, with the answer to send.
    func forward(_ request: ForwardedRequest, completion: @escaping @Sendable (ForwardedAnswer) -> Void)
}

/// A request on its way to an upstream, as the client sent it (secrets included: a forwarder needs them; it
/// must redact what it stores).
package struct ForwardedRequest: Sendable, Equatable {
    package var method: String
    /// The path and query as sent, such as `/search?term=a+b`.
    package var target: String
    /// The decoded path.
    package var path: String
    package var query: [JournalEntry.QueryItem]
    /// The header fields, without `Host` and hop-by-hop fields.
    package var headers: [HeaderField]
    package var body: [UInt8]

    package init(
        method: String, target: String, path: String, query: [JournalEntry.QueryItem] = [],
        headers: [HeaderField] = [], body: [UInt8] = []
    ) {
        self.method = method
        self.target = target
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// Fields that belong to one connection, never forwarded nor recorded (RFC 9110 section 7.6.1).
    package static let hopByHopHeaders = [
        "Connection", "Keep-Alive", "Proxy-Connection", "TE", "Trailer", "Transfer-Encoding", "Upgrade", "Host",
        "Content-Length", "Expect",
    ]
}

/// What an upstream answered, or why it could not answer.
package enum ForwardedAnswer: Sendable, Equatable {
    case response(status: Int, headers: [HeaderField], body: [UInt8])
    /// No answer: 502 (unreachable, failed) or 504 (timed out), with a message naming the upstream and the cause.
    case failed(status: Int, message: String)
}

package import Foundation
package import StubServer

/// Answers requests no stub matches from the real API, writing nothing: stub one endpoint, use the real API for
/// the rest. The journal and the log mark them `proxied`.
package struct Proxy: RequestForwarder {
    package var label: String { "proxied" }
    package var forwardsMatchedRequests: Bool { false }
    package var changesFixtures: Bool { false }
    private let client: UpstreamClient

    /// - Parameters:
    ///   - upstream: the real API's base URL, such as `https://itunes.apple.com`.
    ///   - timeout: how long to wait for its answer before answering 504.
    package init(upstream: URL, timeout: Duration = .seconds(30)) {
        client = UpstreamClient(upstream: upstream, timeout: timeout)
    }

    package func forward(_ request: ForwardedRequest, completion: @escaping @Sendable (ForwardedAnswer) -> Void) {
        client.send(request) { completion($0.answer) }
    }
}

package import Foundation
package import StubServer

/// Records what the fixtures do not answer: the request goes to the real API, the answer goes back to the client
/// and into the fixtures folder (see `FixtureWriter`), and the server's catalog is loaded again, so the next such
/// request is answered from the new fixture. The journal and the log mark forwarded requests `recorded`.
package struct Recorder: RequestForwarder {
    /// Which requests are recorded.
    package enum Mode: String, Sendable {
        /// Requests no stub matches.
        case missing
        /// Every request; a new answer to a request recorded before becomes the next step of its sequence.
        case all
    }

    package var label: String { "recorded" }
    package var forwardsMatchedRequests: Bool { mode == .all }
    package var changesFixtures: Bool { true }
    package let mode: Mode
    private let client: UpstreamClient
    private let writer: FixtureWriter
    private let log: @Sendable (String) -> Void

    /// - Parameters:
    ///   - upstream: the real API's base URL.
    ///   - fixtures: the fixtures folder; recordings go to its `api` folder.
    ///   - api: the API folder's name; by default the upstream's host with dots as dashes (`itunes-apple-com`).
    ///   - redaction: secrets to keep out of every file (`Authorization`, cookies and more by default).
    ///   - log: told one line per stub recorded, and about recordings that failed.
    package init(
        upstream: URL, fixtures: URL, api: String? = nil, mode: Mode = .missing, redaction: Redaction = Redaction(),
        timeout: Duration = .seconds(30), log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.mode = mode
        self.log = log
        client = UpstreamClient(upstream: upstream, timeout: timeout)
        writer = FixtureWriter(
            folder: fixtures.appendingPathComponent(api ?? Self.apiName(for: upstream)), redaction: redaction,
            appendsSequences: mode == .all)
    }

    /// `itunes-apple-com` for `https://itunes.apple.com`.
    package static func apiName(for upstream: URL) -> String {
        let host = upstream.host ?? "upstream"
        return host.replacingOccurrences(of: ".", with: "-").replacingOccurrences(of: ":", with: "-")
    }

    package func forward(_ request: ForwardedRequest, completion: @escaping @Sendable (ForwardedAnswer) -> Void) {
        let (writer, log, host) = (writer, log, client.upstream.host)
        client.send(request) { timed in
            let answer = timed.answer
            if case .response(let status, let headers, let body) = answer {
                do {
                    if let line = try writer.record(
                        request, host: host, status: status, headers: headers, body: body, arrivals: timed.arrivals)
                    {
                        log(line)
                    }
                } catch {
                    log("stub-server: could not record \(request.method) \(request.path): \(error)")
                }
            }
            completion(answer)
        }
    }

}

public import Foundation
import Locking

/// A `ConnectivityMonitor` for platforms without the Network framework: it asks a URL at an interval and counts
/// any HTTP answer as `satisfied`, and a transport failure, timeout or offline error as `unsatisfied`.
public final class ProbingConnectivityMonitor: ConnectivityMonitor {
    private let client: any HTTPClient
    private let probe: URL
    private let interval: Duration
    /// The last probe's result.
    private let last = Lock<ConnectivityStatus?>(nil)

    /// - Parameters:
    ///   - client: sends the probes.
    ///   - probe: a URL that answers quickly, such as the API's base URL.
    ///   - interval: the time between probes while someone listens.
    public init(client: any HTTPClient, probe: URL, interval: Duration = .seconds(5)) {
        self.client = client
        self.probe = probe
        self.interval = interval
    }

    public var status: ConnectivityStatus {
        get async {
            if let known = last.withLock({ $0 }) { return known }
            return await check()
        }
    }

    public func updates() -> AsyncStream<ConnectivityStatus> {
        AsyncStream { continuation in
            let task = Task { [weak self] in
                guard let self else { return }
                var last: ConnectivityStatus?
                while !Task.isCancelled {
                    let current = await check()
                    if current != last {
                        continuation.yield(current)
                        last = current
                    }
                    try? await Task.sleep(for: interval)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Probes once and records the result.
    ///
    /// A probe, once sent, is not cancelled with the task that asked for it: it runs in a task of its own and ends
    /// by itself within its 5 s timeout. Cancelling URLSession's async data task on Linux can deadlock
    /// FoundationNetworking (the canceller waits in `URLSessionTask.cancel` for the session's queue while the task
    /// waits in `resume`; seen when a test cancelled its updates while probes were failing every 20 ms).
    @discardableResult
    public func check() async -> ConnectivityStatus {
        let (client, request) = (client, HTTPRequest(url: probe, method: "HEAD", timeout: 5))
        let sent = Task { () -> Result<HTTPResponse, APIError> in
            do throws(APIError) {
                return .success(try await client.send(request))
            } catch {
                return .failure(error)
            }
        }
        let result: ConnectivityStatus
        switch await sent.value {
        case .success:
            result = .satisfied
        case .failure(let error):
            result = error == .cancelled ? (last.withLock { $0 } ?? .unsatisfied) : .unsatisfied
        }
        last.withLock { $0 = result }
        return result
    }
}

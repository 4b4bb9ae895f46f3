import Foundation
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
    @discardableResult
    public func check() async -> ConnectivityStatus {
        let result: ConnectivityStatus
        do {
            _ = try await client.send(HTTPRequest(url: probe, method: "HEAD", timeout: 5))
            result = .satisfied
        } catch {
            result = error == .cancelled ? (last.withLock { $0 } ?? .unsatisfied) : .unsatisfied
        }
        last.withLock { $0 = result }
        return result
    }
}

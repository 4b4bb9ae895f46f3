import Foundation
public import Networking
public import Observation

/// Runs work now when the network is there, and otherwise keeps it: every piece submitted while offline runs
/// once, in the order submitted, when the monitor reports the network again (the original kept only the last).
@MainActor @Observable
public final class OnlineWorkQueue {
    /// A handle to cancel one queued piece of work.
    public struct Token: Hashable, Sendable {
        let id: Int
    }

    /// Whether the last thing known is that the network is not there.
    public private(set) var isOffline = false
    /// How many pieces wait for the network.
    public var pendingCount: Int { pending.count }

    private let monitor: any ConnectivityMonitor
    private var pending: [(token: Token, work: @MainActor () async -> Void)] = []
    private var nextID = 0
    private var draining = false

    public init(monitor: any ConnectivityMonitor) {
        self.monitor = monitor
    }

    /// Runs `work` now when online and returns nil; when offline, queues it and returns its token.
    @discardableResult
    public func submit(_ work: @escaping @MainActor () async -> Void) async -> Token? {
        if pending.isEmpty, await monitor.status == .satisfied {
            isOffline = false
            await work()
            return nil
        }
        nextID += 1
        let token = Token(id: nextID)
        pending.append((token, work))
        isOffline = await monitor.status != .satisfied
        if !isOffline { await drain() }
        return token
    }

    /// Drops one queued piece of work; nothing happens if it already ran.
    public func cancel(_ token: Token) {
        pending.removeAll { $0.token == token }
    }

    public func cancelAll() {
        pending.removeAll()
    }

    /// Follows the monitor for as long as the calling task runs (a view's `.task`), running what waits when the
    /// network comes back.
    public func monitorConnectivity() async {
        for await status in monitor.updates() {
            isOffline = status != .satisfied
            if status == .satisfied { await drain() }
        }
    }

    /// Runs the queued work in order; each piece leaves the queue before it runs, so it runs once.
    private func drain() async {
        guard !draining else { return }
        draining = true
        defer { draining = false }
        while !isOffline, !pending.isEmpty {
            let next = pending.removeFirst()
            await next.work()
        }
    }
}

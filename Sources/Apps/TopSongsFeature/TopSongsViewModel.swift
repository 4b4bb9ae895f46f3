import Foundation
import Networking
public import Observation

/// The top-songs list: loads the feed when the network is there, and says so when it is not.
@MainActor @Observable
public final class TopSongsViewModel {
    /// What the list shows.
    public enum State: Sendable, Equatable {
        case idle
        case loading
        case loaded([Song])
        case empty
        case failed(String)
    }

    public private(set) var state = State.idle
    /// The notice to show as an alert while a load waits for the network; nil when nothing waits.
    public var offlineNotice: String? {
        queue.isOffline && queue.pendingCount > 0 ? "You're offline. The songs will load when you're back online." : nil
    }

    private let client: any TopSongsClient
    private let queue: OnlineWorkQueue
    /// Counts loads, so that an answer to a superseded load is dropped.
    private var generation = 0

    public init(client: any TopSongsClient, queue: OnlineWorkQueue) {
        self.client = client
        self.queue = queue
    }

    /// The screen appeared: loads the feed once.
    public func viewAppeared() async {
        guard state == .idle else { return }
        await queue.submit { [weak self] in await self?.load() }
    }

    /// The user asked for the feed again: it replaces the list (it is never appended).
    public func reloadTapped() async {
        await queue.submit { [weak self] in await self?.load() }
    }

    /// Follows connectivity for as long as the calling task runs.
    public func monitorConnectivity() async {
        await queue.monitorConnectivity()
    }

    private func load() async {
        generation += 1
        let current = generation
        state = .loading
        do {
            let songs = try await client.topSongs()
            guard current == generation else { return }
            state = songs.isEmpty ? .empty : .loaded(songs)
        } catch {
            guard current == generation else { return }
            state = .failed(error.message)
        }
    }
}

import HTTPMessages
import Locking
import Synchronization

/// What the loop shares with other threads: replies posted by promises, outputs posted to open WebSockets and the
/// request to stop (each wakes the loop), and the number of open connections.
final class LoopChannel: Sendable {
    let waker: Waker
    let openConnections = Atomic<Int>(0)
    /// Connections closed because their client stopped taking output.
    let stalledConnections = Atomic<Int>(0)
    /// Times the loop stopped accepting for want of descriptors (`AcceptPause`).
    let acceptPauses = Atomic<Int>(0)
    private let deliveries = Lock<[Posted]>([])
    private let stopping = Atomic<Bool>(false)

    init() throws(SocketError) {
        waker = try Waker()
    }

    deinit {
        // Closed only when no promise can post any more: a closed descriptor's number may be reused.
        waker.close()
    }

    /// What another thread hands the loop.
    enum Posted: Sendable {
        case reply(ReplyPromise.Delivery)
        case socket(fd: Int32, connection: UInt64, outputs: [WebSocketOutput])
    }

    func post(_ delivery: Posted) {
        deliveries.withLock { $0.append(delivery) }
        waker.wake()
    }

    /// Everything posted so far, oldest first.
    func take() -> [Posted] {
        waker.drain()
        return deliveries.withLock { deliveries in
            defer { deliveries = [] }
            return deliveries
        }
    }

    func requestStop() {
        stopping.store(true, ordering: .releasing)
        waker.wake()
    }

    var stopRequested: Bool { stopping.load(ordering: .acquiring) }
}

import Foundation
import Locking

/// Waits for sockets on one thread of its own, and reads them there the moment bytes arrive, so that a test's task
/// awaiting a slow server holds no thread of Swift's cooperative pool (two on a 2-CPU machine) and no main actor
/// meanwhile, and the time each piece arrived is the time it arrived, however late the task runs.
///
/// Every wait has a deadline and ends early when its task is cancelled. One poller serves the whole test process:
/// `poll(2)` over the descriptors waited on, plus a pipe that wakes it when a wait is added or given up.
package final class SocketPoller: Sendable {
    /// How a wait for a socket to turn writable ended.
    package enum Readiness: Sendable, Equatable {
        case ready
        case timedOut
    }

    /// What a read found.
    package struct Received: Sendable {
        /// Each read that returned bytes, with when it returned (monotonic seconds, `RawHTTPClient.now()`).
        package var arrivals: [(bytes: [UInt8], time: Double)] = []
        /// How the stream ended, if it did: 0 for the peer's close, else the `errno` of a failed read.
        package var end: Int32?
        /// Whether the deadline passed before anything (more) came.
        package var timedOut = false
    }

    /// The poller of this process, started on first use.
    package static let shared = SocketPoller()

    private enum Kind {
        case writable(CheckedContinuation<Readiness, any Error>)
        /// Reads what arrives; `untilClosed`: keeps reading until the peer closes, else resumes after one read.
        case receive(untilClosed: Bool, timeout: Duration, Received, CheckedContinuation<Received, any Error>)
    }

    private struct Waiter {
        var fd: Int32
        var deadline: ContinuousClock.Instant
        var kind: Kind
    }

    private struct State {
        var nextID = 0
        var waiters: [Int: Waiter] = [:]
    }

    private let state = Lock(State())
    private let wakeRead: Int32
    private let wakeWrite: Int32

    private init() {
        var ends: [Int32] = [0, 0]
        precondition(pipe(&ends) == 0, "SocketPoller: pipe: errno \(errno)")
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, fcntl(end, F_GETFD) | FD_CLOEXEC)
        }
        (wakeRead, wakeWrite) = (ends[0], ends[1])
        let poller = self
        Thread { poller.run() }.start()
    }

    /// Waits until `fd` is writable (or has an error to report) or `timeout` passes.
    /// - Throws: `CancellationError` when the task is cancelled first.
    package func waitWritable(_ fd: Int32, timeout: Duration) async throws -> Readiness {
        try await register(fd, timeout: timeout) { .writable($0) }
    }

    /// Reads what arrives on the non-blocking `fd`: once bytes came (`untilClosed: false`) or once the peer closed
    /// it (`untilClosed: true`), or when a read fails, or when `timeout` passes with nothing new.
    /// - Throws: `CancellationError` when the task is cancelled first.
    package func receive(_ fd: Int32, untilClosed: Bool, timeout: Duration) async throws -> Received {
        try await register(fd, timeout: timeout) {
            .receive(untilClosed: untilClosed, timeout: timeout, Received(), $0)
        }
    }

    private func register<T>(
        _ fd: Int32, timeout: Duration, _ kind: @escaping (CheckedContinuation<T, any Error>) -> Kind
    ) async throws -> T {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let cancelled = state.withLock { state in
                    if Task.isCancelled { return true }
                    state.waiters[id] = Waiter(fd: fd, deadline: .now + timeout, kind: kind(continuation))
                    return false
                }
                if cancelled { continuation.resume(throwing: CancellationError()) } else { wake() }
            }
        } onCancel: {
            switch state.withLock({ $0.waiters.removeValue(forKey: id) })?.kind {
            case .writable(let continuation): continuation.resume(throwing: CancellationError())
            case .receive(_, _, _, let continuation): continuation.resume(throwing: CancellationError())
            case nil: break
            }
        }
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)  // EAGAIN: a wake is pending already
    }

    private func run() {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let (waiting, timeout) = state.withLock { state -> ([(Int, pollfd)], Int32) in
                let waiting = state.waiters.map { id, waiter in
                    let events = if case .writable = waiter.kind { POLLOUT } else { POLLIN }
                    return (id, pollfd(fd: waiter.fd, events: Int16(events), revents: 0))
                }
                guard let next = state.waiters.values.map(\.deadline).min() else { return (waiting, -1) }
                let left = ContinuousClock.now.duration(to: next)
                if left <= .zero { return (waiting, 0) }
                let (seconds, attoseconds) = left.components
                return (waiting, Int32(clamping: seconds * 1_000 + attoseconds / 1_000_000_000_000_000 + 1))
            }
            var fds = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)] + waiting.map(\.1)
            if poll(&fds, nfds_t(fds.count), timeout) < 0 && errno != EINTR {
                fatalError("SocketPoller: poll: errno \(errno)")
            }
            if fds[0].revents != 0 {
                while read(wakeRead, &chunk, chunk.count) > 0 {}
            }
            var resumptions: [() -> Void] = []
            state.withLock { state in
                for (index, (id, _)) in waiting.enumerated() where fds[index + 1].revents != 0 {
                    guard var waiter = state.waiters[id] else { continue }
                    switch waiter.kind {
                    case .writable(let continuation):
                        state.waiters[id] = nil
                        resumptions.append { continuation.resume(returning: .ready) }
                    case .receive(let untilClosed, let timeout, var received, let continuation):
                        Self.drain(waiter.fd, into: &received, chunk: &chunk)
                        if received.end != nil || (!untilClosed && !received.arrivals.isEmpty) {
                            state.waiters[id] = nil
                            resumptions.append { [received] in continuation.resume(returning: received) }
                        } else {
                            waiter.deadline = .now + timeout
                            waiter.kind = .receive(untilClosed: untilClosed, timeout: timeout, received, continuation)
                            state.waiters[id] = waiter
                        }
                    }
                }
                let now = ContinuousClock.now
                for (id, waiter) in state.waiters where waiter.deadline <= now {
                    state.waiters[id] = nil
                    switch waiter.kind {
                    case .writable(let continuation): resumptions.append { continuation.resume(returning: .timedOut) }
                    case .receive(_, _, var received, let continuation):
                        received.timedOut = true
                        resumptions.append { [received] in continuation.resume(returning: received) }
                    }
                }
            }
            for resume in resumptions { resume() }
        }
    }

    /// Reads everything `fd` has now, noting when each read returned; stops at `EAGAIN`, the peer's close or an error.
    package static func drain(_ fd: Int32, into received: inout Received, chunk: inout [UInt8]) {
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received.arrivals.append((Array(chunk[..<count]), RawHTTPClient.now()))
                continue
            }
            if count == 0 {
                received.end = 0
                return
            }
            let code = errno
            if code == EINTR { continue }
            if code != EAGAIN && code != EWOULDBLOCK { received.end = code }
            return
        }
    }
}

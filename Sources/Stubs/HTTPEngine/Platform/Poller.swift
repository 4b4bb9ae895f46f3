/// What a connection waits for.
struct Interest: OptionSet, Equatable {
    let rawValue: UInt8
    static let read = Interest(rawValue: 1)
    static let write = Interest(rawValue: 2)
}

/// What the operating system reported for a descriptor.
struct Readiness: Equatable {
    var fd: Int32
    var readable: Bool
    var writable: Bool
    /// Hang-up or error: reported whether asked for or not.
    var hangUp: Bool
}

/// The loop's one window on the operating system: registrations kept between waits, changed when they change.
protocol Poller {
    mutating func add(_ fd: Int32, _ interest: Interest)
    mutating func change(_ fd: Int32, _ interest: Interest)
    mutating func remove(_ fd: Int32)
    /// Waits until a descriptor is ready or `timeoutMs` passes (-1: no limit).
    /// - Returns: the ready descriptors.
    mutating func wait(timeoutMs: Int32) -> [Readiness]
    /// Releases what the poller holds of the operating system; it is unusable afterwards.
    func close()
}

// Apple platforms: `int poll(struct pollfd *, nfds_t, int)` with `typedef unsigned int nfds_t` (xnu
// bsd/sys/poll.h:114, :102), which PollPoller passes as `nfds_t(entries.count)`.
// `SystemPoller`, the poller the event loop uses here: epoll on Linux, `poll()` elsewhere (Apple platforms included:
// it is compiled and tested on Linux beside epoll, and a developer's Mac serves tens of connections, not thousands).
#if os(Linux)
    typealias SystemPoller = EpollPoller
#else
    typealias SystemPoller = PollPoller
#endif

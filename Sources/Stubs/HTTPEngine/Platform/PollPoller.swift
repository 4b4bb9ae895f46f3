#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A `Poller` over `poll()`, on every POSIX system: the registration list is kept and edited in place.
struct PollPoller: Poller {
    private var entries: [pollfd] = []
    /// Where each descriptor's entry is.
    private var slots: [Int32: Int] = [:]
    private var ready: [Readiness] = []

    mutating func add(_ fd: Int32, _ interest: Interest) {
        slots[fd] = entries.count
        entries.append(pollfd(fd: fd, events: Self.events(interest), revents: 0))
    }

    mutating func change(_ fd: Int32, _ interest: Interest) {
        guard let slot = slots[fd] else { return }
        entries[slot].events = Self.events(interest)
    }

    mutating func remove(_ fd: Int32) {
        guard let slot = slots.removeValue(forKey: fd) else { return }
        let last = entries.removeLast()
        if slot < entries.count {
            entries[slot] = last
            slots[last.fd] = slot
        }
    }

    mutating func wait(timeoutMs: Int32) -> [Readiness] {
        ready.removeAll(keepingCapacity: true)
        let count = poll(&entries, nfds_t(entries.count), timeoutMs)
        guard count > 0 else { return [] }
        for entry in entries where entry.revents != 0 {
            let events = Int32(entry.revents)
            ready.append(
                Readiness(
                    fd: entry.fd, readable: events & Int32(POLLIN) != 0, writable: events & Int32(POLLOUT) != 0,
                    hangUp: events & Int32(POLLHUP | POLLERR | POLLNVAL) != 0))
        }
        return ready
    }

    /// Nothing to release: the list lives in memory.
    func close() {}

    private static func events(_ interest: Interest) -> Int16 {
        var events: Int32 = 0
        if interest.contains(.read) { events |= Int32(POLLIN) }
        if interest.contains(.write) { events |= Int32(POLLOUT) }
        return Int16(events)
    }
}

#if canImport(Darwin)
    import Darwin

    /// A `Poller` over kqueue on Apple platforms: a read and a write filter per descriptor, added and deleted as
    /// the interest changes; one wait reports both filters of a descriptor as one `Readiness`.
    struct KqueuePoller: Poller {
        private let fd: Int32
        private var events: [kevent]
        private var registered: [Int32: Interest] = [:]
        private var ready: [Readiness] = []
        /// Where each descriptor's entry is in `ready` during one wait.
        private var slots: [Int32: Int] = [:]

        /// - Parameter batch: most events taken from the kernel per wait; the rest come with the next.
        init(batch: Int = 256) {
            fd = kqueue()
            precondition(fd >= 0, "kqueue failed: errno \(errno)")
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            events = Array(repeating: kevent(), count: batch)
        }

        mutating func add(_ fd: Int32, _ interest: Interest) {
            registered[fd] = []
            change(fd, interest)
        }

        mutating func change(_ fd: Int32, _ interest: Interest) {
            let old = registered[fd] ?? []
            registered[fd] = interest
            apply(fd, .read, Int16(EVFILT_READ), from: old, to: interest)
            apply(fd, .write, Int16(EVFILT_WRITE), from: old, to: interest)
        }

        /// Deletes the descriptor's filters: an open descriptor (the listener, resting after `EMFILE`) must stop
        /// reporting. Closing a descriptor already deletes its filters, so after a close this deletion fails with
        /// `EBADF` or `ENOENT`, which changes nothing.
        mutating func remove(_ fd: Int32) {
            guard let old = registered.removeValue(forKey: fd) else { return }
            apply(fd, .read, Int16(EVFILT_READ), from: old, to: [])
            apply(fd, .write, Int16(EVFILT_WRITE), from: old, to: [])
        }

        mutating func wait(timeoutMs: Int32) -> [Readiness] {
            ready.removeAll(keepingCapacity: true)
            slots.removeAll(keepingCapacity: true)
            var timeout = timespec(tv_sec: Int(timeoutMs / 1000), tv_nsec: Int(timeoutMs % 1000) * 1_000_000)
            let count = events.withUnsafeMutableBufferPointer { buffer in
                if timeoutMs < 0 {
                    return Darwin.kevent(fd, nil, 0, buffer.baseAddress, Int32(buffer.count), nil)
                }
                return Darwin.kevent(fd, nil, 0, buffer.baseAddress, Int32(buffer.count), &timeout)
            }
            guard count > 0 else { return [] }
            for event in events[0..<Int(count)] where event.flags & UInt16(EV_ERROR) == 0 {
                let target = Int32(truncatingIfNeeded: event.ident)
                let slot: Int
                if let existing = slots[target] {
                    slot = existing
                } else {
                    slot = ready.count
                    slots[target] = slot
                    ready.append(Readiness(fd: target, readable: false, writable: false, hangUp: false))
                }
                if event.filter == Int16(EVFILT_READ) { ready[slot].readable = true }
                if event.filter == Int16(EVFILT_WRITE) { ready[slot].writable = true }
                if event.flags & UInt16(EV_EOF) != 0 { ready[slot].hangUp = true }
            }
            return ready
        }

        /// Closes the kqueue descriptor; the poller is unusable afterwards.
        func close() {
            _ = Darwin.close(fd)
        }

        private func apply(_ target: Int32, _ flag: Interest, _ filter: Int16, from old: Interest, to new: Interest) {
            guard old.contains(flag) != new.contains(flag) else { return }
            var change = kevent(
                ident: UInt(target), filter: filter, flags: UInt16(new.contains(flag) ? EV_ADD : EV_DELETE), fflags: 0,
                data: 0, udata: nil)
            _ = Darwin.kevent(fd, &change, 1, nil, 0, nil)
        }
    }
#endif

#if os(Linux)
    import CLinux
    import Glibc

    /// A `Poller` over Linux's epoll: the kernel keeps the registrations, a wait costs what is ready, not what is open.
    ///
    /// Level-triggered, like `poll()`: a descriptor stays ready until the loop has read or written what it can.
    struct EpollPoller: Poller {
        private let fd: Int32
        private var events: [epoll_event]
        private var ready: [Readiness] = []

        /// - Parameter batch: most events taken from the kernel per wait; the rest come with the next.
        init(batch: Int = 256) {
            fd = epoll_create1(Int32(EPOLL_CLOEXEC))
            precondition(fd >= 0, "epoll_create1 failed: errno \(errno)")
            events = Array(repeating: epoll_event(), count: batch)
            ready.reserveCapacity(batch)
        }

        mutating func add(_ fd: Int32, _ interest: Interest) {
            control(EPOLL_CTL_ADD, fd, interest)
        }

        mutating func change(_ fd: Int32, _ interest: Interest) {
            control(EPOLL_CTL_MOD, fd, interest)
        }

        /// Closing a descriptor already removes it; the loop removes after closing, so EBADF is expected here.
        mutating func remove(_ fd: Int32) {
            var event = epoll_event()
            _ = epoll_ctl(self.fd, EPOLL_CTL_DEL, fd, &event)
        }

        mutating func wait(timeoutMs: Int32) -> [Readiness] {
            ready.removeAll(keepingCapacity: true)
            let count = events.withUnsafeMutableBufferPointer { buffer in
                epoll_wait(fd, buffer.baseAddress, Int32(buffer.count), timeoutMs)
            }
            guard count > 0 else { return [] }
            for index in 0..<Int(count) {
                let flags = events[index].events
                ready.append(
                    Readiness(
                        fd: events[index].data.fd,
                        readable: flags & EPOLLIN.rawValue != 0,
                        writable: flags & EPOLLOUT.rawValue != 0,
                        hangUp: flags & (EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0))
            }
            return ready
        }

        /// Closes the epoll descriptor; the poller is unusable afterwards.
        func close() {
            _ = Glibc.close(fd)
        }

        private func control(_ operation: Int32, _ target: Int32, _ interest: Interest) {
            var event = epoll_event()
            if interest.contains(.read) { event.events |= EPOLLIN.rawValue }
            if interest.contains(.write) { event.events |= EPOLLOUT.rawValue }
            event.data.fd = target
            _ = epoll_ctl(fd, operation, target, &event)
        }
    }
#endif

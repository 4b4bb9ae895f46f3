#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Starts a detached POSIX thread: the engine (and the fixture watcher) need one thread each and no more of
/// Foundation than that. The thread blocks SIGPIPE.
public enum LoopThread {
    /// Runs `body` on a new detached thread.
    public static func start(_ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Body(run: body)).toOpaque()
        #if canImport(Glibc)
            var thread = pthread_t()
        #else
            var thread: pthread_t?
        #endif
        let result = pthread_create(&thread, nil, { LoopThread.enter($0) }, context)
        precondition(result == 0, "pthread_create failed: \(result)")
    }

    private final class Body {
        let run: @Sendable () -> Void

        init(run: @escaping @Sendable () -> Void) {
            self.run = run
        }
    }

    #if canImport(Glibc)
        private static func enter(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
            guard let context else { return nil }
            let body = Unmanaged<Body>.fromOpaque(context).takeRetainedValue()
            pthread_detach(pthread_self())
            // `sendfile` takes no MSG_NOSIGNAL: should it ever write to a connection already known broken (the
            // loop closes on the first error, so none was seen), the SIGPIPE stays pending on this thread, which
            // never unblocks it, instead of ending the process; the call fails with EPIPE like any other send.
            var blocked = sigset_t()
            sigemptyset(&blocked)
            sigaddset(&blocked, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &blocked, nil)
            body.run()
            return nil
        }
    #else
        private static func enter(_ context: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
            let body = Unmanaged<Body>.fromOpaque(context).takeRetainedValue()
            pthread_detach(pthread_self())
            body.run()
            return nil
        }
    #endif
}

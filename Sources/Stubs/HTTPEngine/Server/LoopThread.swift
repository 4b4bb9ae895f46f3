#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Starts a detached POSIX thread: the engine (and the fixture watcher) need one thread each and no more of
/// Foundation than that. On Linux the thread blocks SIGPIPE (see `enter`); Apple platforms set `SO_NOSIGPIPE` on
/// each socket instead.
package enum LoopThread {
    /// Runs `body` on a new detached thread.
    package static func start(_ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Body(run: body)).toOpaque()
        // Darwin: `pthread_t` is `struct _opaque_pthread_t *` (libpthread include/sys/_pthread/_pthread_t.h:31,
        // _pthread_types.h:118), and `pthread_create` takes a `pthread_t *` (pthread.h:343): `pthread_t?` here.
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

    // Darwin's start routine imports as `(UnsafeMutableRawPointer) -> UnsafeMutableRawPointer?`: Swift takes
    // libpthread include/pthread/pthread.h:343-345 `void *(* _Nonnull)(void *)`, under assume_nonnull (:102-103),
    // as its importer defines SWIFT_CLASS_EXTRA and the `!` of `#if !_PTHREAD_SWIFT_IMPORTER_NULLABILITY_COMPAT()`
    // (:337) negates only the first `defined` of that unparenthesized macro (:196-197). pthread_detach: :349,
    // pthread_self: :494.
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

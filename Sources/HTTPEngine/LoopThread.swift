#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Starts a detached POSIX thread: the engine needs one thread and no more of Foundation than that.
enum LoopThread {
    static func start(_ body: @escaping @Sendable () -> Void) {
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

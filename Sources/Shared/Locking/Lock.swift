#if TSAN_LOCKS
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif
#else
    import Synchronization
#endif

/// A value only one thread at a time can reach: every lock in the package is this one.
///
/// It is `Synchronization.Mutex`, except in the ThreadSanitizer build (`-D TSAN_LOCKS`, set by `scripts/tsan.sh`), where it
/// is a pthread mutex. On Linux a contended `Mutex` waits on a priority-inheritance futex that ThreadSanitizer
/// cannot see, so it reports races between accesses the mutex does order (`scripts/TSan/MutexFalseRace.swift`
/// shows it in twenty lines); pthread locks are intercepted, so the races it reports with them are real.
package struct Lock<Value>: ~Copyable, Sendable {
    #if TSAN_LOCKS
        private let box: PthreadLockBox<Value>
    #else
        private let mutex: Mutex<Value>
    #endif

    package init(_ value: sending Value) {
        #if TSAN_LOCKS
            box = PthreadLockBox(value)
        #else
            mutex = Mutex(value)
        #endif
    }

    /// Runs `body` with the value while holding the lock.
    package borrowing func withLock<Result, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        #if TSAN_LOCKS
            try box.withLock(body)
        #else
            try mutex.withLock(body)
        #endif
    }
}

#if TSAN_LOCKS
    /// The ThreadSanitizer build's lock: a pthread mutex and the value it guards.
    ///
    /// `@unchecked Sendable` because the compiler cannot see the rule this type keeps: `value` is only touched
    /// between `pthread_mutex_lock` and `pthread_mutex_unlock` on `mutex`, which lives at a fixed address.
    private final class PthreadLockBox<Value>: @unchecked Sendable {
        private let mutex: UnsafeMutablePointer<pthread_mutex_t>
        private var value: Value

        init(_ value: sending Value) {
            mutex = .allocate(capacity: 1)
            mutex.initialize(to: pthread_mutex_t())
            pthread_mutex_init(mutex, nil)
            self.value = value
        }

        deinit {
            pthread_mutex_destroy(mutex)
            mutex.deallocate()
        }

        func withLock<Result, E: Error>(
            _ body: (inout sending Value) throws(E) -> sending Result
        ) throws(E) -> sending Result {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&value)
        }
    }
#endif

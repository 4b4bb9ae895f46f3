// Evidence for `Sources/Shared/Locking/Lock.swift`: ThreadSanitizer on Linux reports a race between two accesses that a
// contended `Synchronization.Mutex` orders. A second thread holds the lock for 50 ms while the main thread waits
// for it; both append to the protected array. `tsan.sh` builds this three ways and checks each verdict:
//   -D USE_MUTEX    Synchronization.Mutex: TSan reports a data race (the false one: every access is locked)
//   -D USE_LOCK     the package's Lock in its -D TSAN_LOCKS form (a pthread mutex): no report
//   (neither)       no lock at all, a real race: TSan must report it, or the check proves nothing
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
#if USE_MUTEX
    import Synchronization
#endif

#if USE_MUTEX
    typealias TestedLock<Value> = Mutex<Value>
#elseif USE_LOCK
    typealias TestedLock<Value> = Lock<Value>
#endif

/// An array shared by two threads, behind the lock under test.
final class Shared: @unchecked Sendable {
    // @unchecked: in the unprotected build the race is the point; the other builds lock every access.
    #if USE_MUTEX || USE_LOCK
        let lock = TestedLock<[Int]>([])
        func append(_ value: Int, holdingFor microseconds: UInt32 = 0) {
            lock.withLock {
                usleep(microseconds)
                $0.append(value)
            }
        }
        var count: Int { lock.withLock { $0.count } }
    #else
        var values: [Int] = []
        func append(_ value: Int, holdingFor microseconds: UInt32 = 0) {
            usleep(microseconds)
            values.append(value)
        }
        var count: Int { values.count }
    #endif
}

@main
enum MutexFalseRace {
    static func main() {
        let shared = Shared()
        let context = Unmanaged.passRetained(shared).toOpaque()
        #if canImport(Glibc)
            var thread = pthread_t()
        #else
            var thread: pthread_t?
        #endif
        let created = pthread_create(&thread, nil, holdTheLock, context)
        precondition(created == 0, "pthread_create failed")
        usleep(10_000)  // the other thread now holds the lock: this append waits for it
        shared.append(2)
        #if canImport(Glibc)
            pthread_join(thread, nil)
        #else
            pthread_join(thread!, nil)
        #endif
        print("appended \(shared.count) values")
    }
}

/// The second thread: takes the lock and holds it for 50 ms while appending.
func holdTheLock(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    let shared = Unmanaged<Shared>.fromOpaque(context!).takeRetainedValue()
    shared.append(1, holdingFor: 50_000)
    return nil
}

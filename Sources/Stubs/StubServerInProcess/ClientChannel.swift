import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The way from an answer's timers to URLSession: one loading `URLProtocol` and its client, called in order and
/// never after the protocol stopped loading or after the task ended.
///
/// `@unchecked Sendable` as a lock wrapper: `URLProtocol` and `URLProtocolClient` are not `Sendable` in
/// swift-corelibs-foundation, while URLSession starts and stops the protocol on its own threads and the answer
/// arrives on timers; every use of them goes through `lock`.
final class ClientChannel: @unchecked Sendable {
    /// Recursive: were a platform to call `stopLoading` from inside a client call on the same thread, `close()`
    /// must not wait for itself.
    private let lock = NSRecursiveLock()
    private var urlProtocol: URLProtocol?
    // Apple's URL loading system wants a protocol's client called on the thread that called `startLoading`, which
    // runs a run loop (as AliSoftware/OHHTTPStubs Sources/OHHTTPStubs/HTTPStubs.m does in `startLoading` and
    // `executeOnClientRunLoopAfterDelay:block:`): CFRunLoop.h:60 CFRunLoopGetCurrent, :78 CFRunLoopPerformBlock,
    // :74 CFRunLoopWakeUp, :55 kCFRunLoopDefaultMode (line numbers of swift-corelibs-foundation's copy).
    #if canImport(Darwin)
        private let runLoop = CFRunLoopGetCurrent()
    #endif

    /// Made in `startLoading`, on its thread.
    init(_ urlProtocol: URLProtocol) {
        self.urlProtocol = urlProtocol
    }

    /// Calls nothing more: the protocol stopped loading (the task was cancelled).
    func close() {
        lock.withLock { urlProtocol = nil }
    }

    /// Runs `call` with the protocol and its client, on the client's thread where the platform asks for one, unless
    /// the channel is closed; `ending` closes it after the call (the task has its answer or its error).
    func send(ending: Bool = false, _ call: @escaping @Sendable (URLProtocol, any URLProtocolClient) -> Void) {
        #if canImport(Darwin)
            CFRunLoopPerformBlock(runLoop, CFRunLoopMode.defaultMode.rawValue) { self.deliver(ending, call) }
            CFRunLoopWakeUp(runLoop)
        #else
            deliver(ending, call)
        #endif
    }

    private func deliver(_ ending: Bool, _ call: (URLProtocol, any URLProtocolClient) -> Void) {
        // Under the lock, so `stopLoading` (which closes the channel) waits for a call under way, and no call
        // follows it: swift-corelibs-foundation stops with a fatal error on a call for a task it has forgotten.
        lock.withLock {
            guard let urlProtocol, let client = urlProtocol.client else { return }
            call(urlProtocol, client)
            if ending { self.urlProtocol = nil }
        }
    }
}

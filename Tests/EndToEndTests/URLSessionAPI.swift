import Foundation
import Locking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The ways an app reads a data task's answer; URLSession delivers the body differently to each (on Linux,
/// completion handlers and `data(for:)` keep only the last piece a custom protocol loads).
enum URLSessionAPI: String, CaseIterable, Sendable {
    case async
    case completionHandler
    case delegate

    /// What one request got: the body, the status, and the error that ended it, if any.
    struct Fetched: Sendable {
        var data = Data()
        var status: Int?
        var error: URLError?
    }

    /// Sends `request` through a session made from `configuration`, read the way this API reads it.
    func fetch(_ request: URLRequest, with configuration: URLSessionConfiguration) async -> Fetched {
        switch self {
        case .async:
            let session = URLSession(configuration: configuration)
            defer { session.finishTasksAndInvalidate() }
            do {
                let (data, response) = try await session.data(for: request)
                return Fetched(data: data, status: (response as? HTTPURLResponse)?.statusCode)
            } catch {
                return Fetched(error: error as? URLError)
            }
        case .completionHandler:
            let session = URLSession(configuration: configuration)
            defer { session.finishTasksAndInvalidate() }
            return await withCheckedContinuation { continuation in
                session.dataTask(with: request) { data, response, error in
                    continuation.resume(
                        returning: Fetched(
                            data: data ?? Data(), status: (response as? HTTPURLResponse)?.statusCode,
                            error: error as? URLError))
                }.resume()
            }
        case .delegate:
            let collector = Collector()
            let session = URLSession(configuration: configuration, delegate: collector, delegateQueue: nil)
            defer { session.finishTasksAndInvalidate() }
            return await withCheckedContinuation { continuation in
                collector.onComplete { continuation.resume(returning: $0) }
                session.dataTask(with: request).resume()
            }
        }
    }
}

/// A data delegate that collects every piece and the end of one task.
private final class Collector: NSObject, URLSessionDataDelegate, Sendable {
    private let state = Lock(URLSessionAPI.Fetched())
    private let completion = Lock<(@Sendable (URLSessionAPI.Fetched) -> Void)?>(nil)

    /// Calls `body` with what the task got when it ends.
    func onComplete(_ body: @escaping @Sendable (URLSessionAPI.Fetched) -> Void) {
        completion.withLock { $0 = body }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        state.withLock { $0.status = (response as? HTTPURLResponse)?.statusCode }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        state.withLock { $0.data += data }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let fetched = state.withLock { state in
            state.error = error as? URLError
            state.status = state.status ?? (task.response as? HTTPURLResponse)?.statusCode
            return state
        }
        let body = completion.withLock { $0 }
        body?(fetched)
    }
}

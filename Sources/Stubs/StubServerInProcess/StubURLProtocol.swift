import Foundation
import Locking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The `URLProtocol` of one in-process server: `Tag` names the server (see `ServerTag`), so a session whose
/// configuration lists this class reaches that server and no other.
final class StubURLProtocol<Tag: ServerTag>: URLProtocol {
    /// The answer under way; a `let` with a default, so the class keeps every initializer of `URLProtocol`.
    private let load = Lock<StubLoad?>(nil)

    /// Every http and https request: a request no stub matches is answered 404 with the closest stubs, as by the
    /// socket server.
    override class func canInit(with request: URLRequest) -> Bool {
        guard let scheme = request.url?.scheme?.lowercased() else { return false }
        return scheme == "http" || scheme == "https"
    }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest {
        request
    }

    override func startLoading() {
        let started = InProcessStubs.startLoading(
            request, server: Tag.number, unsupported: Self.unsupported(task), through: ClientChannel(self))
        load.withLock { $0 = started }
    }

    override func stopLoading() {
        load.withLock { $0 }?.cancel()
    }

    /// Why `task` cannot be answered in process on this platform, or nil.
    ///
    /// swift-corelibs-foundation finishes a download task by force-casting a temporary-file URL only its own HTTP
    /// protocol sets (`URLSessionTask.swift`, `_ProtocolClient.urlProtocolDidFinishLoading`: `as! URL`), and keeps
    /// an upload task's body where no protocol can read it (`URLSessionTask.knownBody`, set by
    /// `URLSession.uploadTask`): answering either would crash the process or match a request without its body.
    static func unsupported(_ task: URLSessionTask?) -> String? {
        #if canImport(FoundationNetworking)
            if task is URLSessionDownloadTask {
                return "download tasks cannot be answered in process on Linux; use a data task"
            }
            if task is URLSessionUploadTask {
                return "upload tasks cannot be answered in process on Linux; use a data task with httpBody"
            }
        #endif
        return nil
    }
}

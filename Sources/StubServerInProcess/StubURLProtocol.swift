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
        let started = InProcessStubs.startLoading(request, server: Tag.number, through: ClientChannel(self))
        load.withLock { $0 = started }
    }

    override func stopLoading() {
        load.withLock { $0 }?.cancel()
    }
}

package import HTTPEngine
package import HTTPMessages
package import StubCore

#if canImport(FoundationEssentials)
    package import FoundationEssentials
#else
    package import Foundation
#endif

/// The admin API of stubs that answer elsewhere (in process) on a loopback port of its own, and nothing else, so a
/// test in another process controls them with `RemoteStubs`: every other path is answered 404, saying why.
package final class AdminServer: HTTPResponder {
    /// `http://127.0.0.1:PORT`.
    package let baseURL: URL
    private let api: AdminAPI
    private let engine: HTTPServer

    /// Serves the admin API of `runtime` on `127.0.0.1:port` (0: a free port).
    /// - Throws: `StubServerError.bindFailed` when it cannot listen there.
    package static func start(runtime: StubRuntime, port: UInt16) throws(StubServerError) -> AdminServer {
        let address = "127.0.0.1"
        let engine: HTTPServer
        do {
            engine = try HTTPServer(host: address, port: port, limits: HTTPServer.Limits())
        } catch {
            throw .bindFailed(host: address, port: Int(port), reason: error.description)
        }
        let server = AdminServer(
            runtime: runtime, engine: engine, baseURL: URL(string: "http://\(address):\(engine.port)")!)
        engine.start(responder: server, onAcceptPause: nil)
        return server
    }

    private init(runtime: StubRuntime, engine: HTTPServer, baseURL: URL) {
        self.engine = engine
        self.baseURL = baseURL
        api = AdminAPI(runtime: runtime, sockets: nil, baseURL: baseURL)
    }

    package func respond(to request: Request, promise: ReplyPromise) -> Answer {
        guard AdminAPI.serves(request.path) else {
            let refusal = HTTPError(
                .notFound, "this port serves only the admin API under /__stub/: the stubs answer in process")
            return .now(Reply(.respond(.error(refusal))))
        }
        return .now(Reply(.respond(api.response(to: request))))
    }

    /// Stops accepting, closes every connection, and returns once the server's thread has finished.
    package func stop() async {
        await engine.stop()
    }
}

import Foundation
import Networking
import StubServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The package's `MockData/` folder.
let mockData = StubCatalog.findFolder()!

/// The real client with a short, explicit timeout, as end-to-end tests use it.
func realClient(timeout: TimeInterval = 5) -> URLSessionHTTPClient {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = timeout
    configuration.timeoutIntervalForResource = timeout * 2
    return URLSessionHTTPClient(session: URLSession(configuration: configuration))
}

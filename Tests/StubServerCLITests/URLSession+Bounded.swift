// These tests run the built `stub-server` as a process: compiled only where a test can start one.
#if os(macOS) || os(Linux)
    import Foundation

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    extension URLSession {
        /// An ephemeral session whose requests give up after `seconds` without an answer: a server that stops
        /// answering fails its test within seconds instead of holding it for URLSession's default 60 s.
        static func bounded(_ seconds: TimeInterval = 5) -> URLSession {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = seconds
            configuration.timeoutIntervalForResource = seconds * 2
            return URLSession(configuration: configuration)
        }
    }
#endif

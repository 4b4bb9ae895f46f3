import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension InProcessStubs {
    /// Answers `URLSession.shared` from this server too, for code that cannot take a session, until
    /// `stopInterceptingSharedSession()` or `stop()`. Process-wide: every request of `URLSession.shared` in the
    /// process reaches this server, so tests that intercept run `.serialized` (one server intercepts at a time).
    ///
    /// Apple platforms only: `URLProtocol.registerClass(_:)`, which `URLSession.shared` consults
    /// (developer.apple.com/documentation/foundation/urlprotocol/registerclass(_:)). swift-corelibs-foundation gives `URLSession.shared` a copy of the protocol classes
    /// registered when it was made, its own HTTP protocol among them, and asks them in the order registered, so a
    /// class registered later never answers http or https there (`URLSession.swift` `shared`, `URLProtocol.swift`
    /// `registerClass` and `getProtocolClass`).
    /// - Throws: `InProcessStubsError.sharedSessionTaken` while another server intercepts,
    ///   `.sharedSessionNotInterceptable` on Linux.
    public func interceptSharedSession() throws(InProcessStubsError) {
        guard Self.canInterceptSharedSession else { throw .sharedSessionNotInterceptable }
        try Self.registry.withLock { (registry: inout Registry) throws(InProcessStubsError) in
            if let other = registry.intercepting {
                guard other == number else { throw .sharedSessionTaken }
                return
            }
            _ = URLProtocol.registerClass(protocolClass)
            registry.intercepting = number
        }
    }

    /// Leaves `URLSession.shared` to the network again, if this server intercepts it.
    public func stopInterceptingSharedSession() {
        Self.registry.withLock { registry in
            guard registry.intercepting == number else { return }
            URLProtocol.unregisterClass(protocolClass)
            registry.intercepting = nil
        }
    }

    #if canImport(FoundationNetworking)
        static let canInterceptSharedSession = false
    #else
        static let canInterceptSharedSession = true
    #endif
}

/// Why an in-process server cannot do what was asked.
public enum InProcessStubsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Another in-process server intercepts `URLSession.shared`.
    case sharedSessionTaken
    /// This platform's URLSession never asks a protocol registered later for http or https (Linux).
    case sharedSessionNotInterceptable
    /// A launch-environment variable `startFromEnvironment()` cannot read: its name, its value, what it must be.
    case invalidEnvironment(String, value: String, expected: String)

    public var description: String {
        switch self {
        case .sharedSessionTaken:
            "another in-process stub server intercepts URLSession.shared; stop it first (tests that intercept run "
                + ".serialized)"
        case .sharedSessionNotInterceptable:
            "URLSession.shared cannot be intercepted on Linux: swift-corelibs-foundation asks its own HTTP protocol "
                + "first; give the code under test the server's urlSession or sessionConfiguration"
        case .invalidEnvironment(let name, let value, let expected):
            "\(name) must be \(expected), not \(value.debugDescription)"
        }
    }
}

/// What a TLS listener presents: its certificate chain and private key, PEM-encoded, the protocol versions it
/// accepts, and how it takes a client's hello.
package struct TLSIdentity: Sendable, Equatable {
    /// The leaf certificate first, then any intermediate (PEM).
    package var certificateChainPEM: String
    /// The leaf's private key (PEM, unencrypted).
    package var privateKeyPEM: String
    /// The versions accepted.
    package var versions: ClosedRange<TLSVersion>
    /// What the listener does with a client's hello.
    package var handshake: Handshake

    /// How a listener takes a client's hello.
    package enum Handshake: Sendable, Equatable {
        /// Answers it.
        case answered
        /// Resets the connection when the hello arrives.
        case reset
        /// Reads it and answers nothing: the connection waits for the idle timeout.
        case stalled
    }

    package init(
        certificateChainPEM: String, privateKeyPEM: String, versions: ClosedRange<TLSVersion> = .tls12 ... .tls13,
        handshake: Handshake = .answered
    ) {
        self.certificateChainPEM = certificateChainPEM
        self.privateKeyPEM = privateKeyPEM
        self.versions = versions
        self.handshake = handshake
    }

    /// Loads the identity as a listener would.
    /// - Throws: `TLSError` when the certificate or key does not load or match, or the platform has no TLS here.
    package func validate() throws(TLSError) {
        _ = try makeTLSContext(self)
    }
}

/// A TLS protocol version.
package enum TLSVersion: Int, Sendable, CaseIterable, Comparable {
    /// Served only to stand for a server too old for today's clients, which refuse it.
    case tls11 = 1
    case tls12 = 2
    case tls13 = 3

    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The listener's context for `identity`, made with the platform's TLS library: OpenSSL on Linux, Secure Transport
/// on iOS (https://developer.apple.com/documentation/security/secure-transport; TLS 1.2 at most there).
/// - Throws: `TLSError` when the certificate or key does not load, or the platform has no TLS here.
func makeTLSContext(_ identity: TLSIdentity) throws(TLSError) -> any TLSServerContext {
    #if canImport(COpenSSL)
        try OpenSSLContext(identity)
    #elseif canImport(Security) && os(iOS)
        try SecureTransportContext(identity)
    #else
        throw TLSError(
            "HTTPS is served on Linux and iOS: on macOS Secure Transport cannot sign with a P-256 key held in memory "
                + "(Security's sslKeychain.c sizes the signature for a keychain key there)")
    #endif
}

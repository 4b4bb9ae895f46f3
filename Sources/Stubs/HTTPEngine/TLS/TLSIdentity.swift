/// What a TLS listener presents: its certificate chain and private key, PEM-encoded, and the protocol versions
/// it accepts.
package struct TLSIdentity: Sendable, Equatable {
    /// The leaf certificate first, then any intermediate (PEM).
    package var certificateChainPEM: String
    /// The leaf's private key (PEM, unencrypted).
    package var privateKeyPEM: String
    /// The oldest version accepted; the newest is always TLS 1.3.
    package var lowestVersion: TLSVersion

    package init(certificateChainPEM: String, privateKeyPEM: String, lowestVersion: TLSVersion = .tls12) {
        self.certificateChainPEM = certificateChainPEM
        self.privateKeyPEM = privateKeyPEM
        self.lowestVersion = lowestVersion
    }

    /// Loads the identity as a listener would.
    /// - Throws: `TLSError` when the certificate or key does not load or match, or the platform has no TLS here.
    package func validate() throws(TLSError) {
        _ = try makeTLSContext(self)
    }
}

/// A TLS protocol version.
package enum TLSVersion: String, Sendable, CaseIterable {
    case tls12 = "TLS 1.2"
    case tls13 = "TLS 1.3"
}

/// The listener's context for `identity`, made with the platform's TLS library.
/// - Throws: `TLSError` when the certificate or key does not load, or the platform has no TLS here.
func makeTLSContext(_ identity: TLSIdentity) throws(TLSError) -> any TLSServerContext {
    #if canImport(COpenSSL)
        try OpenSSLContext(identity)
    #else
        throw TLSError("HTTPS is served on Linux (OpenSSL) only for now")
    #endif
}

/// What a TLS handshake showed a client about its server, gathered by the platform's TLS: whether the chain is
/// trusted for the host asked for (dates, names, an authority the client trusts), why not, and the leaf key's pin.
///
/// On Apple platforms `init(trust:host:)` gathers them from a challenge's `SecTrust` (`PinningSessionDelegate` does);
/// the package's tests gather them with OpenSSL.
public struct ServerTrustFacts: Sendable, Equatable {
    /// Why the chain is not trusted, in the TLS library's words; nil when it is.
    public var chainFailure: String?
    /// `sha256//` and the Base64 of the SHA-256 of the leaf's SubjectPublicKeyInfo.
    public var keyPin: String

    public init(chainFailure: String?, keyPin: String) {
        self.chainFailure = chainFailure
        self.keyPin = keyPin
    }
}

/// An app's pinning of its host's key: a server is accepted when its chain is trusted for the host and its key is
/// one of the pins. Pinning replaces neither check: a pinned key on an expired certificate, or a trusted chain with
/// another key, is refused.
public struct KeyPinning: Sendable, Equatable {
    /// The keys accepted, as `sha256//BASE64` (what `stub-server trust` prints for the local authority's server key).
    public var pins: Set<String>

    public init(pins: Set<String>) {
        self.pins = pins
    }

    /// What to do with a server, and why, in words a person can act on.
    public enum Decision: Sendable, Equatable {
        case accept
        case refuse(String)
    }

    public func decide(_ facts: ServerTrustFacts) -> Decision {
        if let failure = facts.chainFailure {
            return .refuse("the server's certificate is not trusted: \(failure)")
        }
        guard pins.contains(facts.keyPin) else {
            return .refuse("the server's key \(facts.keyPin) is not one the app pins")
        }
        return .accept
    }
}

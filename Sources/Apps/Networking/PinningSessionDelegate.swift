// Apple platforms only: FoundationNetworking's protection spaces carry no `SecTrust`. Each Security call is cited
// from apple-oss-distributions/Security at db15acbe (Security-61901.0.87.0.1): trust/headers/SecTrust.h,
// trust/headers/SecPolicy.h, trust/headers/SecCertificate.h, keychain/headers/SecKey.h, keychain/headers/SecItem.h.
#if canImport(Security) && canImport(CryptoKit)
    import CryptoKit
    public import Foundation
    public import Security

    extension ServerTrustFacts {
        /// The facts of a server-trust challenge's `trust` for `host`: whether the platform trusts the chain for that
        /// host, and the pin of the leaf's key; nil when the key cannot be read or is not of a `PublicKeyKind`.
        /// Evaluating may wait on the network (revocation): URLSession calls its delegate off the main actor.
        public init?(trust: SecTrust, host: String) {
            // SecPolicy.h:196, SecTrust.h:245: the policy of a TLS server named `host` (a new result is evaluated).
            guard SecTrustSetPolicies(trust, SecPolicyCreateSSL(true, host as CFString)) == errSecSuccess else {
                return nil
            }
            var error: CFError?
            // SecTrust.h:426: true when trusted; else the error says why.
            let trusted = SecTrustEvaluateWithError(trust, &error)
            // SecTrust.h:655 (macOS 12, iOS 15): the chain, leaf first; SecCertificate.h:156: the leaf's key.
            guard let chain = SecTrustCopyCertificateChain(trust) as? [SecCertificate], let leaf = chain.first,
                let key = SecCertificateCopyKey(leaf), let pin = Self.pin(of: key)
            else { return nil }
            let failure =
                trusted ? nil : error.map { CFErrorCopyDescription($0) as String } ?? "the chain is not trusted"
            self.init(chainFailure: failure, keyPin: pin)
        }

        /// `sha256//` and the Base64 of the SHA-256 of `key`'s SubjectPublicKeyInfo.
        static func pin(of key: SecKey) -> String? {
            // SecKey.h:876, SecItem.h:522 and 530: the type ("73" for any EC key, however made; "42" for RSA) and
            // size (a number).
            guard let attributes = SecKeyCopyAttributes(key) as? [String: Any],
                let type = attributes[kSecAttrKeyType as String] as? String,
                let bits = attributes[kSecAttrKeySizeInBits as String] as? Int,
                type == (kSecAttrKeyTypeECSECPrimeRandom as String) || type == (kSecAttrKeyTypeRSA as String),
                let kind = PublicKeyKind(elliptic: type == (kSecAttrKeyTypeECSECPrimeRandom as String), bits: bits),
                // SecKey.h:854: an EC point 04 || X || Y, or PKCS#1 RSAPublicKey; its length checks the exponent.
                let bytes = SecKeyCopyExternalRepresentation(key, nil) as Data?, bytes.count == kind.keyByteCount
            else { return nil }
            let info = Data(kind.subjectPublicKeyInfoHeader) + bytes
            return "sha256//" + Data(SHA256.hash(data: info)).base64EncodedString()
        }
    }

    /// A URLSession delegate that accepts a server only as `pinning` decides: a chain the platform trusts for the
    /// host, and a pinned key. Any other challenge gets the default handling.
    ///
    /// ```swift
    /// let pins = KeyPinning(pins: ["sha256//..."])  // stub-server trust prints the local server key's
    /// let session = URLSession(configuration: .ephemeral, delegate: PinningSessionDelegate(pinning: pins),
    ///                          delegateQueue: nil)
    /// ```
    public final class PinningSessionDelegate: NSObject, URLSessionDelegate, Sendable {
        public let pinning: KeyPinning

        public init(pinning: KeyPinning) {
            self.pinning = pinning
        }

        public func urlSession(
            _ session: URLSession, didReceive challenge: URLAuthenticationChallenge,
            completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
        ) {
            let space = challenge.protectionSpace
            guard space.authenticationMethod == NSURLAuthenticationMethodServerTrust, let trust = space.serverTrust
            else { return completionHandler(.performDefaultHandling, nil) }
            guard let facts = ServerTrustFacts(trust: trust, host: space.host), pinning.decide(facts) == .accept else {
                return completionHandler(.cancelAuthenticationChallenge, nil)
            }
            completionHandler(.useCredential, URLCredential(trust: trust))
        }
    }
#endif

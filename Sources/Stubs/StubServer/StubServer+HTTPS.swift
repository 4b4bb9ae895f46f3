import HTTPEngine
import StubCore

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension StubServer {
    /// Serving HTTPS: TLS 1.2 and 1.3, HTTP/1.1 inside, with a certificate for `localhost`, `127.0.0.1`, `::1`
    /// and `hosts`, signed by a certificate authority of this machine's own (made on first use).
    ///
    /// A client trusts the authority once: `stub-server trust` prints its file and the commands for a
    /// simulator, macOS and Linux. The HTTPS guide says more.
    public struct HTTPS: Sendable, Equatable {
        /// The authority's folder; nil: the user's (`STUB_SERVER_AUTHORITY`, else a folder of the user's data).
        public var authorityFolder: URL?
        /// Host names and addresses the certificate names beside the loopback ones.
        public var hosts: [String]
        /// How every connection fails instead of handshaking as it should; nil: none.
        public var failure: TLSFailure?
        /// A port to serve plain HTTP on as well (0: a free one), from the same stubs, choices and journal; nil:
        /// HTTPS only. The server's `plainBaseURL` is its address.
        public var plainPort: UInt16?

        public init(
            authorityFolder: URL? = nil, hosts: [String] = [], failure: TLSFailure? = nil, plainPort: UInt16? = nil
        ) {
            self.authorityFolder = authorityFolder
            self.hosts = hosts
            self.failure = failure
            self.plainPort = plainPort
        }

        /// The authority, and a leaf identity it signed for this server.
        func identity() throws(StubServerError) -> (authority: LocalAuthority, identity: TLSIdentity) {
            do {
                let authority = try LocalAuthority.loadOrCreate(
                    in: authorityFolder?.path ?? LocalAuthority.defaultFolder)
                var identity = try authority.issue(hosts: hosts, leaf: leaf)
                switch failure {
                case .oldProtocol: identity.versions = .tls11 ... .tls11
                case .handshakeReset: identity.handshake = .reset
                case .handshakeStall: identity.handshake = .stalled
                default: break
                }
                try identity.validate()
                return (authority, identity)
            } catch {
                throw .httpsFailed(reason: error.description)
            }
        }
    }
}

extension StubServer.HTTPS {
    /// The leaf a failure presents.
    fileprivate var leaf: LocalAuthority.Leaf {
        switch failure {
        case .expired: .expired
        case .notYetValid: .notYetValid
        case .wrongHost: .wrongHost
        case .selfSigned: .selfSigned
        case .unknownAuthority: .unknownAuthority
        case .otherKey: .otherKey
        case .oldProtocol, .handshakeReset, .handshakeStall, nil: .valid
        }
    }
}

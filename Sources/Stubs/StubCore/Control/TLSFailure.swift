/// A way a server's TLS fails its clients, chosen before the handshake: a certificate a careful client refuses, a
/// protocol it will not speak, or a handshake that never completes.
///
/// A socket server given one (`StubServer.HTTPS.failure`, `stub-server serve --https --tls-failure ID`) fails every
/// connection that way; the HTTPS guide lists what each client then reports.
public enum TLSFailure: String, CaseIterable, Sendable, Codable {
    /// The certificate's validity ended yesterday.
    case expired
    /// The certificate's validity starts tomorrow.
    case notYetValid = "not-yet-valid"
    /// The certificate names another host only (`wrong-host.invalid`).
    case wrongHost = "wrong-host"
    /// The certificate is signed by its own key, not by the trusted authority.
    case selfSigned = "self-signed"
    /// The certificate is signed by an authority no client trusts.
    case unknownAuthority = "unknown-authority"
    /// A valid certificate from the trusted authority with another key: only a client that pins the server's key
    /// refuses it.
    case otherKey = "other-key"
    /// The server speaks TLS 1.1 only, which today's clients refuse.
    case oldProtocol = "old-protocol"
    /// The server resets the connection when the client's hello arrives.
    case handshakeReset = "handshake-reset"
    /// The server reads the client's hello and answers nothing until its idle timeout.
    case handshakeStall = "handshake-stall"

    /// Its ID, as `--tls-failure` and the guide write it (`not-yet-valid`).
    public var id: String { rawValue }

    /// What the server does, in one line, as `stub-server mutations --tls` lists it.
    package var summary: String {
        switch self {
        case .expired: "the certificate's validity ended yesterday"
        case .notYetValid: "the certificate's validity starts tomorrow"
        case .wrongHost: "the certificate names wrong-host.invalid only"
        case .selfSigned: "the certificate is signed by its own key, not by the authority"
        case .unknownAuthority: "the certificate is signed by an authority no client trusts"
        case .otherKey: "a valid certificate from the authority with another key: only a client that pins refuses it"
        case .oldProtocol: "the server speaks TLS 1.1 only"
        case .handshakeReset: "the server resets the connection when the client's hello arrives"
        case .handshakeStall: "the server reads the client's hello and answers nothing until its idle timeout"
        }
    }
}
